"""MLE-bench v1's Python API, called as the harnesses built on v1 call it (issue 41).

Every competition is prepared in v1's layout (``<dir>/<id>/prepared/{public,private}``): the embedded ones
through the API's own ``download_and_prepare_dataset``, the Kaggle ones from their fixtures. The gold and the
sample submission of each are graded through the API and through ``mlebench grade-sample``: the same score,
thresholds and medals. Then each name harnesses use (inspect_evals, aira-dojo, RD-Agent, mle-bench-hpc, and
others reading ``comp.public_dir``, ``comp.description``, ...) is exercised as they call it.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from collections.abc import Callable
from datetime import datetime
from pathlib import Path

import pandas as pd
import pytest
from kaggle_fixtures import prepare_fixture, serve_fixture

from mlebench.cli import main
from mlebench.data.selfcheck import gold_submission
from mlebench_spec.declarations import all_competition_ids, load_competition
from mlebench_spec.errors import ConfigError

ALL_IDS = all_competition_ids()
EMBEDDED = [c for c in ALL_IDS if load_competition(c).source.kind != "kaggle"]
RDAGENT_JSON = re.compile(r"\{.*\}", re.DOTALL)  # how RD-Agent finds the report in grade-sample's output
REPORT_KEYS = [
    "competition_id",
    "score",
    "gold_threshold",
    "silver_threshold",
    "bronze_threshold",
    "median_threshold",
    "any_medal",
    "gold_medal",
    "silver_medal",
    "bronze_medal",
    "above_median",
    "submission_exists",
    "valid_submission",
    "is_lower_better",
    "created_at",
    "submission_path",
]
COMPARED = [k for k in REPORT_KEYS if k not in ("created_at", "submission_path")]

Prepared = Callable[[str], dict[str, Path]]


def _fields(report: dict) -> dict:
    """Return the compared fields of a report, a NaN score as the string "nan" (NaN never equals itself)."""
    score = report["score"]
    return {k: report[k] for k in COMPARED} | {"score": "nan" if score != score else score}


@pytest.fixture(scope="module")
def v1_data(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Prepared]:
    """Return a v1-layout data directory and the function that prepares a competition there (once)."""
    from mlebench.data import download_and_prepare_dataset
    from mlebench.registry import registry

    root = tmp_path_factory.mktemp("v1-api")
    data_dir = root / "data"
    done: dict[str, dict[str, Path]] = {}

    def prepare(cid: str) -> dict[str, Path]:
        if cid not in done:
            competition = registry.set_data_dir(data_dir).get_competition(cid)
            if cid in EMBEDDED:
                download_and_prepare_dataset(competition, keep_raw=False)
                comp = load_competition(cid)
            else:
                got = prepare_fixture(cid, root / "work" / cid)
                competition.public_dir.parent.mkdir(parents=True)
                shutil.move(got.public, competition.public_dir)
                shutil.move(got.private, competition.private_dir)
                comp = got.comp
            scratch = root / "gold" / cid
            scratch.mkdir(parents=True)
            gold = gold_submission(comp, competition.public_dir, competition.private_dir, scratch)
            done[cid] = {"gold": gold, "sample": competition.sample_submission}
        return done[cid]

    return data_dir, prepare


def _grade_sample(args: list[str], capsys: pytest.CaptureFixture[str]) -> dict:
    """Run ``mlebench grade-sample`` and read its report as RD-Agent does; stdout must be that one object."""
    assert main(["grade-sample", *args]) == 0
    out = capsys.readouterr().out
    found = RDAGENT_JSON.search(out)
    assert found is not None and found.group(0) == out.strip(), out
    return json.loads(found.group(0))


@pytest.mark.parametrize("cid", ALL_IDS)
def test_scores_through_the_api_equal_grade_sample(
    cid: str, v1_data: tuple[Path, Prepared], capsys: pytest.CaptureFixture[str]
) -> None:
    from mlebench.grade import grade_csv
    from mlebench.registry import registry
    from mlebench.utils import load_answers, read_csv

    data_dir, prepare = v1_data
    files = prepare(cid)
    competition = registry.set_data_dir(data_dir).get_competition(cid)
    for name, submission in files.items():
        report = grade_csv(submission, competition).to_dict()
        assert list(report) == REPORT_KEYS
        cli = _grade_sample([str(submission), cid, "--data-dir", str(data_dir)], capsys)
        assert _fields(report) == _fields(cli), name
        if name == "gold":
            assert report["valid_submission"] and report["gold_medal"], report
        frame_score = competition.grader(read_csv(submission), load_answers(competition.answers))
        assert _fields({**report, "score": frame_score}) == _fields(report), name


def test_the_report_has_v1s_keys_and_types_and_reads_back(v1_data: tuple[Path, Prepared]) -> None:
    from mlebench.grade import grade_csv
    from mlebench.grade_helpers import CompetitionReport
    from mlebench.registry import registry

    data_dir, prepare = v1_data
    files = prepare("titanic-lite")
    report = grade_csv(files["sample"], registry.set_data_dir(data_dir).get_competition("titanic-lite"))
    d = report.to_dict()
    assert isinstance(d["score"], float) and all(
        isinstance(d[k], float) for k in COMPARED if "threshold" in k
    )
    assert all(
        isinstance(d[k], bool) for k in COMPARED if k.endswith(("medal", "median", "exists", "better"))
    )
    assert isinstance(d["created_at"], str) and datetime.fromisoformat(d["created_at"]) == report.created_at
    assert CompetitionReport.from_dict(json.loads(json.dumps(d))) == report


def test_grade_sample_none_gives_the_thresholds_in_both_layouts(
    v1_data: tuple[Path, Prepared], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """RD-Agent runs ``grade-sample None ID --data-dir D`` only to read the four thresholds."""
    data_dir, prepare = v1_data
    prepare("titanic-lite")
    ours = tmp_path / "ours"
    shutil.copytree(data_dir / "titanic-lite" / "prepared", ours / "titanic-lite")
    reports = [
        _grade_sample(["None", "titanic-lite", "--data-dir", str(d)], capsys) for d in (data_dir, ours)
    ]
    for report in reports:
        assert report["submission_exists"] is False and report["score"] is None
        assert all(
            isinstance(report[f"{m}_threshold"], float) for m in ("gold", "silver", "bronze", "median")
        )
    assert reports[0]["gold_threshold"] == reports[1]["gold_threshold"]


def test_the_registry_reads_our_layout_too(v1_data: tuple[Path, Prepared], tmp_path: Path) -> None:
    from mlebench.grade import grade_csv
    from mlebench.registry import registry

    data_dir, prepare = v1_data
    files = prepare("titanic-lite")
    shutil.copytree(data_dir / "titanic-lite" / "prepared", tmp_path / "titanic-lite")
    competition = registry.set_data_dir(tmp_path).get_competition("titanic-lite")
    assert competition.private_dir == tmp_path.resolve() / "titanic-lite" / "private"
    assert competition.raw_dir == tmp_path.resolve() / ".raw" / "titanic-lite"
    assert grade_csv(files["gold"], competition).gold_medal


def test_competition_fields_as_harnesses_read_them(v1_data: tuple[Path, Prepared]) -> None:
    """DSGym, kaggle-agents, plexe, arbench read public_dir, description, sample_submission, grader."""
    from mlebench.data import get_leaderboard, is_dataset_prepared
    from mlebench.grade_helpers import Grader
    from mlebench.registry import Competition, registry

    data_dir, prepare = v1_data
    prepare("titanic-lite")
    comp = registry.set_data_dir(data_dir).get_competition("titanic-lite")
    assert isinstance(comp, Competition) and isinstance(comp.grader, Grader)
    assert comp.id == "titanic-lite" and comp.name and comp.competition_type == "simple"
    assert comp.description == (load_competition("titanic-lite").folder / "description.md").read_text()
    assert comp.public_dir == data_dir.resolve() / "titanic-lite" / "prepared" / "public"
    assert comp.sample_submission.is_file() and comp.answers.is_file() and comp.gold_submission.is_file()
    assert comp.leaderboard.is_file() and comp.checksums.is_file()
    assert is_dataset_prepared(comp) and is_dataset_prepared(comp, grading_only=True)
    board = get_leaderboard(comp)
    assert "score" in board.columns and comp.grader.is_lower_better(board) is False
    assert list(comp.prepare_fn.__code__.co_varnames[:3]) == ["raw", "public", "private"]


def test_registry_lists(v1_data: tuple[Path, Prepared]) -> None:
    from mlebench.registry import registry

    ids = registry.list_competition_ids()
    assert ids == sorted(ids) and len(ids) == len(ALL_IDS) and "spaceship-titanic" in ids
    lite = registry.get_lite_competition_ids()
    assert len(lite) == 22 and all(load_competition(c).complexity == "low" for c in lite)
    assert registry.set_data_dir(Path("/x")).get_data_dir() == Path("/x") and registry.get_data_dir() != Path(
        "/x"
    )


def test_aira_dojo_builds_a_report_by_hand_from_grader_and_leaderboard(
    v1_data: tuple[Path, Prepared],
) -> None:
    """aira-dojo: grader(df, answers), rank_score, is_lower_better, CompetitionReport(...).to_dict()."""
    from mlebench.data import get_leaderboard, is_dataset_prepared
    from mlebench.grade import grade_csv, validate_submission
    from mlebench.grade_helpers import CompetitionReport
    from mlebench.registry import registry
    from mlebench.utils import get_logger, get_timestamp, load_answers, purple, read_csv

    data_dir, prepare = v1_data
    files = prepare("credit-scoring")
    comp = registry.set_data_dir(data_dir).get_competition("credit-scoring")
    assert is_dataset_prepared(comp, grading_only=True)
    assert validate_submission(files["gold"], comp) == (True, "Submission is valid.")
    score = comp.grader(read_csv(files["sample"]), load_answers(comp.answers))
    board = get_leaderboard(comp)
    rank = comp.grader.rank_score(score, board)
    report = CompetitionReport(
        competition_id=comp.id,
        score=score,
        **{
            k: rank[k] for k in ("gold_threshold", "silver_threshold", "bronze_threshold", "median_threshold")
        },
        any_medal=rank["gold_medal"] or rank["silver_medal"] or rank["bronze_medal"],
        **{k: rank[k] for k in ("gold_medal", "silver_medal", "bronze_medal", "above_median")},
        submission_exists=True,
        valid_submission=score is not None,
        is_lower_better=comp.grader.is_lower_better(board),
        created_at=datetime.now(),
        submission_path=str(files["sample"]),
    )
    graded = grade_csv(files["sample"], comp).to_dict()
    by_hand = report.to_dict()
    assert {k: by_hand[k] for k in COMPARED} == {k: graded[k] for k in COMPARED}
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d-\d\d-\d\d-\w+", get_timestamp())
    assert purple("x") == "\033[1;35mx\033[0m" and get_logger("h").name == "h"


def test_invalid_submissions_score_none_and_validate_says_why(
    v1_data: tuple[Path, Prepared], tmp_path: Path
) -> None:
    from mlebench.grade import grade_csv, validate_submission
    from mlebench.registry import registry
    from mlebench.utils import load_answers, read_csv

    data_dir, prepare = v1_data
    files = prepare("titanic-lite")
    comp = registry.set_data_dir(data_dir).get_competition("titanic-lite")
    broken = tmp_path / "submission.csv"
    read_csv(files["sample"]).iloc[:-3].to_csv(broken, index=False)
    ok, message = validate_submission(broken, comp)
    assert not ok and message.startswith("Submission invalid! The attempt to grade the submission")
    report = grade_csv(broken, comp)
    assert report.submission_exists and not report.valid_submission and report.score is None
    assert comp.grader(read_csv(broken), load_answers(comp.answers)) is None
    text = tmp_path / "submission.txt"
    text.write_text("x")
    assert validate_submission(text, comp) == (
        False,
        "Submission invalid! Submission file must be a CSV file.",
    )
    assert not grade_csv(text, comp).submission_exists
    assert validate_submission(tmp_path / "gone.csv", comp)[0] is False


def test_grading_an_unprepared_competition_says_to_prepare_it(tmp_path: Path) -> None:
    from mlebench.grade import grade_csv
    from mlebench.registry import registry

    comp = registry.set_data_dir(tmp_path).get_competition("titanic-lite")
    with pytest.raises(ValueError, match="mlebench prepare -c titanic-lite"):
        grade_csv(tmp_path / "submission.csv", comp)


def test_grade_jsonl_and_aggregate_reports(v1_data: tuple[Path, Prepared], tmp_path: Path) -> None:
    from mlebench.grade import grade_jsonl
    from mlebench.registry import registry

    data_dir, prepare = v1_data
    files = prepare("titanic-lite")
    lines = [
        json.dumps({"competition_id": "titanic-lite", "submission_path": str(files[k])})
        for k in ("gold", "sample")
    ]
    jsonl = tmp_path / "submissions.jsonl"
    jsonl.write_text("# a comment\n" + "\n".join(lines) + "\n")
    grade_jsonl(jsonl, tmp_path / "out", registry.set_data_dir(data_dir))
    (written,) = (tmp_path / "out").glob("*_grading_report.json")
    summary = json.loads(written.read_text())
    assert summary["total_runs"] == 2 and summary["total_valid_submissions"] == 2
    assert summary["total_gold_medals"] == 1 and len(summary["competition_reports"]) == 2


def test_rank_score_agrees_with_v1_on_every_kept_leaderboard() -> None:
    """v1 infers the direction from the leaderboard's order; ours comes from the metric: they agree."""
    from mlebench.data import get_leaderboard
    from mlebench.registry import registry

    for cid in ALL_IDS:
        comp = registry.get_competition(cid)
        if not comp.leaderboard.is_file():
            continue
        board = get_leaderboard(comp)
        top, bottom = board["score"].iloc[0], board["score"].iloc[-1]
        assert comp.grader.is_lower_better(board) == bool(top < bottom), cid


def test_v1s_leaderboard_numbers_reach_the_report_unrounded() -> None:
    """aptos2019: silver is the leaderboard's value, not the 5-decimal 0.91965 of the old table."""
    from mlebench.data import get_leaderboard
    from mlebench.registry import registry

    comp = registry.get_competition("aptos2019-blindness-detection")
    rank = comp.grader.rank_score(0.91965, get_leaderboard(comp))
    assert rank["bronze_medal"] and not rank["silver_medal"] and rank["silver_threshold"] > 0.91965


def test_kaggle_download_without_credentials_names_cause_and_fix(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from mlebench.data import download_and_prepare_dataset
    from mlebench.registry import registry

    for name in ("KAGGLE_USERNAME", "KAGGLE_KEY", "KAGGLE_API_TOKEN"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("KAGGLE_CONFIG_DIR", str(tmp_path / "no-kaggle"))
    comp = registry.set_data_dir(tmp_path / "data").get_competition("spaceship-titanic")
    with pytest.raises(ConfigError, match="no Kaggle credentials: put kaggle.json"):
        download_and_prepare_dataset(comp)


def test_v1_flags_that_cannot_be_honoured_say_why(tmp_path: Path) -> None:
    from mlebench.data import download_and_prepare_dataset, ensure_leaderboard_exists
    from mlebench.registry import registry

    comp = registry.set_data_dir(tmp_path).get_competition("titanic-lite")
    with pytest.raises(ConfigError, match="skip_verification is not supported"):
        download_and_prepare_dataset(comp, skip_verification=True)
    with pytest.raises(ConfigError, match="overwrite_leaderboard is not supported"):
        download_and_prepare_dataset(comp, overwrite_leaderboard=True)
    assert ensure_leaderboard_exists(comp) == comp.leaderboard
    vent = registry.get_competition("ventilator-pressure-prediction")
    with pytest.raises(FileNotFoundError, match="thresholds are declared"):
        ensure_leaderboard_exists(vent)


def test_a_kaggle_competition_through_the_standin(
    standin,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],  # noqa: ANN001 - conftest's server
) -> None:
    """aira-dojo's call, v1's keyword arguments, downloads through the Kaggle client from the stand-in."""
    from mlebench.data import download_and_prepare_dataset, is_dataset_prepared
    from mlebench.grade import grade_csv
    from mlebench.registry import registry

    serve_fixture(load_competition("spaceship-titanic"), standin, tmp_path / "served")
    comp = registry.set_data_dir(tmp_path / "data").get_competition("spaceship-titanic")
    assert not is_dataset_prepared(comp)
    with pytest.warns(UserWarning, match="no archive_sha256"):
        download_and_prepare_dataset(
            competition=comp,
            keep_raw=False,
            overwrite_checksums=False,
            overwrite_leaderboard=False,
            skip_verification=False,
        )
    assert is_dataset_prepared(comp) and not comp.raw_dir.exists()
    assert (tmp_path / "data" / "spaceship-titanic" / "prepared" / "public" / "description.md").is_file()
    capsys.readouterr()  # the Kaggle client's download messages
    report = grade_csv(comp.sample_submission, comp).to_dict()
    cli = _grade_sample([str(comp.sample_submission), comp.id, "--data-dir", str(tmp_path / "data")], capsys)
    assert _fields(report) == _fields(cli)


def test_prepare_takes_v1s_flags(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    listed = tmp_path / "ids.txt"
    listed.write_text("titanic-lite\n")
    assert main(["prepare", "-l", str(listed), "--data-dir", str(tmp_path / "d"), "--keep-raw"]) == 0
    assert (tmp_path / "d" / "titanic-lite" / "prepared" / "private" / "answers.csv").is_file()
    assert (tmp_path / "d" / "titanic-lite" / "raw").is_dir()
    assert (
        main(["prepare", "-c", "titanic-lite", "--data-dir", str(tmp_path / "o"), "--data-layout", "ours"])
        == 0
    )
    assert (tmp_path / "o" / "titanic-lite" / "private" / "answers.csv").is_file()
    for flag in ("--overwrite-leaderboard", "--skip-verification"):
        assert main(["prepare", "-c", "titanic-lite", flag]) == 2
        assert f"{flag} is not supported" in capsys.readouterr().err


def test_installing_beside_v1_fails_naming_what_to_do(tmp_path: Path) -> None:
    """With v1's distribution (``mlebench``) installed, importing any module of ours stops with the fix."""
    dist = tmp_path / "mlebench-1.0.0.dist-info"
    dist.mkdir()
    (dist / "METADATA").write_text("Metadata-Version: 2.1\nName: mlebench\nVersion: 1.0.0\n")
    for module in ("mlebench.registry", "mlebench.cli", "graders.grade"):
        done = subprocess.run(
            [sys.executable, "-c", f"import {module}"],
            capture_output=True,
            text=True,
            env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
        )
        assert done.returncode != 0
        assert "MLE-bench v1 (distribution `mlebench` 1.0.0" in done.stderr
        assert "pip uninstall -y mlebench mlebench-dvc" in done.stderr
    clean = subprocess.run([sys.executable, "-c", "import mlebench.registry"], capture_output=True, text=True)
    assert clean.returncode == 0, clean.stderr


def test_frames_handed_to_the_grader_score_like_the_file(v1_data: tuple[Path, Prepared]) -> None:
    """Grader.__call__ writes its frames and grades them by the one path; shuffled rows change nothing."""
    from mlebench.registry import registry
    from mlebench.utils import load_answers, read_csv

    data_dir, prepare = v1_data
    files = prepare("credit-scoring")
    comp = registry.set_data_dir(data_dir).get_competition("credit-scoring")
    frame = read_csv(files["sample"])
    answers = load_answers(comp.answers)
    assert isinstance(answers, pd.DataFrame)
    assert comp.grader(frame.sample(frac=1, random_state=0), answers) == comp.grader(frame, answers)


def test_grade_sample_output_parses_even_with_stderr_merged(v1_data: tuple[Path, Prepared]) -> None:
    """Stdout and stderr read together still give RD-Agent's search the report alone.

    The warnings (here: no manifest, as in v1's own data) hold no braces.
    """
    data_dir, prepare = v1_data
    files = prepare("titanic-lite")
    manifest = data_dir / "titanic-lite" / "prepared" / "manifest.json"
    kept = manifest.read_bytes()
    manifest.unlink()  # as in a folder MLE-bench v1 prepared
    try:
        for submission in (str(files["sample"]), "None"):
            done = subprocess.run(
                [sys.executable, "-m", "mlebench.cli", "grade-sample", submission, "titanic-lite"]
                + ["--data-dir", str(data_dir)],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            assert done.returncode == 0 and "manifest.json is missing" in done.stdout
            found = RDAGENT_JSON.search(done.stdout)
            assert found is not None and json.loads(found.group(0))["competition_id"] == "titanic-lite"
    finally:
        manifest.write_bytes(kept)
