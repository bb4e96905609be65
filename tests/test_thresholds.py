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
from mlebench.spec.declarations import all_competition_ids, load_competition
from mlebench.spec.paths import repo_root

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


def test_a_leaderboard_matching_its_pointer_gets_verified_thresholds(
    repo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = _board_bytes()
    code, out = _run(_checkout(tmp_path, data), capsys, "--write")
    assert code == 0, out
    medals = load_competition(CID, repo).medals
    assert medals is not None and medals.verified and not medals.unverified
    assert medals.leaderboard_sha256 == hashlib.sha256(data).hexdigest()
    scores = [0.100 + i / 1000 for i in range(120)]
    assert (medals.gold, medals.silver, medals.bronze) == pytest.approx((scores[9], scores[23], scores[47]))
    assert medals.median == pytest.approx((scores[59] + scores[60]) / 2)
    assert "120 teams" in medals.source and "1 verified, 0 refused" in out
    text = (repo / "competitions" / CID / "competition.yaml").read_text()
    assert text.count("medals:") == 1 and "third-party" not in text


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
