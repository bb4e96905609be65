"""`mlebench thresholds --v1-checkout`: v1's leaderboards checked against their Git-LFS pointers.

Recomputed with Kaggle's rules and written as verified; unpulled, missing and forged files are refused.
"""

from __future__ import annotations

import hashlib
import shutil
from pathlib import Path

import pytest

from authoring.declaration_text import set_block
from mlebench.cli import main
from mlebench_spec.declarations import all_competition_ids, load_competition
from mlebench_spec.paths import repo_root

CID = "spooky-author-identification"  # log loss: lower is better
BOARD = f"mlebench/competitions/{CID}/leaderboard.csv"


def _board_bytes(n: int = 120) -> bytes:
    # lower-better scores, best first; 120 teams: gold rank 10, silver int(0.2 n) = 24, bronze int(0.4 n) = 48
    return ("teamId,score\n" + "".join(f"{i},{0.100 + i / 1000:.3f}\n" for i in range(n))).encode()


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Make a checkout with one Kaggle competition whose v1 pointer names the fixture leaderboard."""
    root = tmp_path / "repo"
    shutil.copytree(repo_root() / "competitions" / CID, root / "competitions" / CID)
    (root / "conf").mkdir()
    data = _board_bytes()
    declaration = root / "competitions" / CID / "competition.yaml"
    comp = load_competition(CID)
    assert comp.v1 is not None
    block = (
        "v1:\n"
        f"  leaderboard: {{path: {BOARD}, sha256: {hashlib.sha256(data).hexdigest()}, size: {len(data)}}}\n"
        f"  description: {{path: {comp.v1.description.path}, git_blob: {comp.v1.description.git_blob}}}\n"
    )
    declaration.write_text(set_block(declaration.read_text(), "v1", block, after="description"))
    monkeypatch.setenv("MLEBENCH_ROOT", str(root))
    return root


def _checkout(tmp_path: Path, data: bytes) -> Path:
    checkout = tmp_path / "v1"
    (checkout / BOARD).parent.mkdir(parents=True)
    (checkout / BOARD).write_bytes(data)
    return checkout


def _run(checkout: Path, capsys: pytest.CaptureFixture[str], *extra: str) -> tuple[int, str]:
    code = main(["thresholds", "-c", CID, "--v1-checkout", str(checkout), *extra])
    return code, capsys.readouterr().out


def test_a_leaderboard_matching_its_pointer_is_kept_and_the_thresholds_derived_from_it(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Changed on purpose (issue 41): --write keeps the verified file instead of numbers in medals:."""
    from graders.grade import competition_thresholds
    from mlebench_spec.leaderboards import threshold_state

    data = _board_bytes()
    code, out = _run(_checkout(tmp_path, data), capsys, "--write")
    assert code == 0, out
    comp = load_competition(CID, repo)
    assert comp.medals is None and threshold_state(comp) == "verified"
    assert (repo / "competitions" / CID / "leaderboard.csv").read_bytes() == data
    scores = [float(f"{0.100 + i / 1000:.3f}") for i in range(120)]
    t = competition_thresholds(comp, higher_is_better=False)
    assert (t.gold, t.silver, t.bronze) == (scores[9], scores[23], scores[47])
    assert t.median == pytest.approx((scores[59] + scores[60]) / 2)
    assert "120 teams" in out and "1 of 1 verified, 0 refused" in out
    text = (repo / "competitions" / CID / "competition.yaml").read_text()
    assert "medals:" not in text and "third-party" not in text
    code, out = main(["thresholds", "-c", CID]), capsys.readouterr().out  # the kept file, checked again
    assert code == 0 and "1 of 1 verified" in out


def test_a_kept_leaderboard_that_no_longer_matches_its_pointer_stops_grading(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from graders.grade import competition_thresholds
    from mlebench_spec.errors import ConfigError

    assert _run(_checkout(tmp_path, _board_bytes()), capsys, "--write")[0] == 0
    (repo / "competitions" / CID / "leaderboard.csv").write_bytes(_FORGED)
    with pytest.raises(ConfigError, match="not MLE-bench v1's leaderboard"):
        competition_thresholds(load_competition(CID, repo), higher_is_better=False)
    assert main(["thresholds", "-c", CID]) == 1 and "has sha256" in capsys.readouterr().out


_FORGED = _board_bytes().replace(b"0,0.100", b"0,0.099")  # same size as the pinned file, a score nudged
_POINTER = b"version https://example/spec/v1\noid sha256:" + b"0" * 64 + b"\nsize 3141\n"


@pytest.mark.parametrize(
    ("content", "message"),
    [(_FORGED, "has sha256"), (None, "does not exist"), (_POINTER, "git lfs pull")],
    ids=["forged", "missing", "unpulled-pointer"],
)
def test_a_leaderboard_not_matching_its_pointer_is_refused_and_nothing_is_written(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], content: bytes | None, message: str
) -> None:
    assert len(_FORGED) == len(_board_bytes()) and _FORGED != _board_bytes()
    declaration = repo / "competitions" / CID / "competition.yaml"
    before = declaration.read_text()
    checkout = _checkout(tmp_path, content) if content is not None else tmp_path / "empty"
    code, out = _run(checkout, capsys, "--write")
    assert code == 1
    assert f"{CID}: error:" in out and message in out, out
    assert declaration.read_text() == before


def test_a_leaderboard_of_another_size_is_refused(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _run(_checkout(tmp_path, _board_bytes(121)), capsys)
    assert code == 1 and "bytes; v1's pointer says" in out


def test_every_kaggle_competition_records_its_v1_pointer_and_description() -> None:
    kaggle = [c for c in all_competition_ids() if load_competition(c).source.kind == "kaggle"]
    assert len(kaggle) == 82
    missing = [c for c in kaggle if load_competition(c).v1 is None]
    assert not missing
    paths = {load_competition(c).v1.leaderboard.path for c in kaggle}  # type: ignore[union-attr]
    assert len(paths) == 82


def test_v1s_leaderboards_are_kept_in_the_competition_folders_and_verify_81_of_82(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out = main(["thresholds", "-a"]), capsys.readouterr().out
    assert code == 1 and out.splitlines()[-1] == "81 of 82 verified, 1 refused"
    assert "ventilator-pressure-prediction: error:" in out


def test_only_ventilator_keeps_hand_kept_thresholds_and_says_why() -> None:
    from mlebench_spec.leaderboards import threshold_state

    kaggle = [load_competition(c) for c in all_competition_ids() if load_competition(c).v1 is not None]
    declared = [c.id for c in kaggle if c.medals is not None]
    assert declared == ["ventilator-pressure-prediction"]
    vent = load_competition("ventilator-pressure-prediction").medals
    assert vent is not None and vent.unverified and "not" in vent.source and "available" in vent.source
    states = {c.id: threshold_state(c) for c in kaggle}
    assert sorted(states.values()).count("verified") == 81


def _v1_medal(score: float, board: Path, lower_is_better: bool) -> str:
    """Return v1's medal: positions by Kaggle's brackets, compared with unrounded scores read by pandas."""
    import pandas as pd

    scores = pd.read_csv(board)["score"]
    n = len(scores)
    if n < 100:
        ranks = [max(1, int(n * 0.1)), max(1, int(n * 0.2)), max(1, int(n * 0.4))]
    elif n < 250:
        ranks = [10, max(1, int(n * 0.2)), max(1, int(n * 0.4))]
    elif n < 1000:
        ranks = [10 + int(n * 0.002), 50, 100]
    else:
        ranks = [10 + int(n * 0.002), max(1, int(n * 0.05)), max(1, int(n * 0.1))]
    for name, rank in zip(("gold", "silver", "bronze"), ranks, strict=True):
        limit = float(scores.iloc[rank - 1])
        if (score <= limit) if lower_is_better else (score >= limit):
            return name
    return "none"


def _boundary_cases() -> list[tuple[str, str, float]]:
    """Every medal threshold with more than 5 decimals, and the score at its 5-decimal rounding."""
    import pandas as pd

    from graders.grade import competition_thresholds
    from graders.registry import get_metric

    cases = []
    for cid in all_competition_ids():
        comp = load_competition(cid)
        if comp.v1 is None or comp.medals is not None:
            continue
        t = competition_thresholds(comp, get_metric(comp.metric.name).higher_is_better)
        for which in ("gold", "silver", "bronze", "median"):
            value = getattr(t, which)
            if round(value, 5) != value and not pd.isna(value):
                cases.append((cid, which, round(value, 5)))
    return cases


BOUNDARY = _boundary_cases()


def test_there_are_boundary_scores_to_check() -> None:
    """The shared files' README names 11 thresholds printed with more than five decimals."""
    assert len(BOUNDARY) >= 11
    assert ("aptos2019-blindness-detection", "silver", 0.91965) in BOUNDARY


@pytest.mark.parametrize(("cid", "which", "score"), BOUNDARY, ids=[f"{c}-{w}" for c, w, _ in BOUNDARY])
def test_a_score_between_the_rounded_and_the_unrounded_threshold_gets_v1s_medal(
    cid: str, which: str, score: float
) -> None:
    from graders.grade import competition_thresholds
    from graders.medals import award
    from graders.registry import get_metric

    comp = load_competition(cid)
    higher = get_metric(comp.metric.name).higher_is_better
    t = competition_thresholds(comp, higher)
    medals = award(score, t, higher)
    ours = "gold" if medals.gold else "silver" if medals.silver else "bronze" if medals.bronze else "none"
    assert ours == _v1_medal(score, comp.leaderboard_path, lower_is_better=not higher)
    if which == "median":
        import pandas as pd

        v1_median = float(pd.read_csv(comp.leaderboard_path)["score"].median())
        assert medals.above_median == ((score > v1_median) if higher else (score < v1_median))


def test_aptos_0_91965_is_bronze_as_in_v1_not_silver_as_the_rounded_table_said() -> None:
    from graders.grade import competition_thresholds
    from graders.medals import award

    comp = load_competition("aptos2019-blindness-detection")
    medals = award(0.91965, competition_thresholds(comp, higher_is_better=True), higher_is_better=True)
    assert medals.bronze and not medals.silver


def test_the_report_counts_74_of_75_verified_thresholds_for_all() -> None:
    from collections import Counter

    from mlebench.planning.plan import named_set, resolve_set
    from mlebench.reporting.markdown import threshold_line
    from mlebench_spec.leaderboards import threshold_state

    states = Counter(threshold_state(load_competition(c)) for c in resolve_set(named_set("all")))
    assert states == {"verified": 74, "unverified": 1}
    assert "all: 74 of 75 verified" in threshold_line({"groups": {"all": {"thresholds": dict(states)}}})


def _v1_thresholds(board: Path) -> tuple[float, float, float, float]:
    """Compute v1's four thresholds: its bracket positions over the rows as pandas reads them, its median."""
    import pandas as pd

    scores = pd.read_csv(board)["score"]
    n = len(scores)
    if n < 100:
        ranks = [max(1, int(n * 0.1)), max(1, int(n * 0.2)), max(1, int(n * 0.4))]
    elif n < 250:
        ranks = [10, max(1, int(n * 0.2)), max(1, int(n * 0.4))]
    elif n < 1000:
        ranks = [10 + int(n * 0.002), 50, 100]
    else:
        ranks = [10 + int(n * 0.002), max(1, int(n * 0.05)), max(1, int(n * 0.1))]
    gold, silver, bronze = (float(scores.iloc[r - 1]) for r in ranks)
    return gold, silver, bronze, float(scores.median())


def test_derived_thresholds_equal_v1s_to_the_last_digit_on_every_kept_leaderboard() -> None:
    from graders.grade import competition_thresholds
    from graders.registry import get_metric

    checked = 0
    for cid in all_competition_ids():
        comp = load_competition(cid)
        if comp.v1 is None or comp.medals is not None:
            continue
        t = competition_thresholds(comp, get_metric(comp.metric.name).higher_is_better)
        assert (t.gold, t.silver, t.bronze, t.median) == _v1_thresholds(comp.leaderboard_path), cid
        checked += 1
    assert checked == 81
