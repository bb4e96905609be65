"""The `mlebench` command: list, grade-sample (answers win gold, sample submissions win nothing), grade."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest
from embedded_fixtures import EMBEDDED, Prepared
from embedded_fixtures import ROOT as EMBEDDED_ROOT

from mlebench.cli import main


def _grade_sample(capsys: pytest.CaptureFixture[str], submission: Path, prepared: Prepared) -> dict:
    args = ["grade-sample", str(submission), prepared.comp.id, "--data-dir", str(prepared.out.parent)]
    assert main(args) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("competition_id", EMBEDDED)
def test_answers_win_gold_and_sample_submission_wins_nothing(
    competition_id: str, prepare_once: Callable[[str], Prepared], capsys: pytest.CaptureFixture[str]
) -> None:
    prepared = prepare_once(competition_id)
    answers = _grade_sample(capsys, prepared.private / prepared.comp.submission.answers, prepared)
    assert answers["valid_submission"] and answers["gold_medal"], answers
    sample = _grade_sample(capsys, prepared.public / "sample_submission.csv", prepared)
    assert sample["valid_submission"] and not sample["any_medal"], sample


def test_list_embedded_prints_one_id_per_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--competition-set", "embedded"]) == 0
    assert capsys.readouterr().out.split() == EMBEDDED


def test_list_unknown_set_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["list", "--competition-set", "nope"]) == 2
    assert "unknown competition set 'nope'" in capsys.readouterr().err


def test_grade_jsonl_writes_an_mlebench_style_report(
    tmp_path: Path, prepare_once: Callable[[str], Prepared], capsys: pytest.CaptureFixture[str]
) -> None:
    prepared = prepare_once("titanic-lite")
    lines = [
        "# comments and blank lines are skipped",
        "",
        json.dumps(
            {
                "competition_id": "titanic-lite",
                "submission_path": str(prepared.public / "sample_submission.csv"),
            }
        ),
        json.dumps({"competition_id": "titanic-lite", "submission_path": str(tmp_path / "missing.csv")}),
    ]
    jsonl = tmp_path / "subs.jsonl"
    jsonl.write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    assert (
        main(
            [
                "grade",
                "--submission",
                str(jsonl),
                "--output-dir",
                str(out),
                "--data-dir",
                str(prepared.out.parent),
            ]
        )
        == 0
    )
    (report_file,) = out.glob("*_grading_report.json")
    report = json.loads(report_file.read_text())
    assert report["total_runs"] == 2 and report["total_runs_with_submissions"] == 1
    assert report["total_valid_submissions"] == 1 and report["total_medals"] == 0
    assert [r["status"] for r in report["competition_reports"]] == ["ok", "no_submission"]


@pytest.mark.parametrize(
    ("name", "count"),
    [("low", 22), ("lite", 22), ("medium", 38), ("high", 15), ("all", 75), ("dev", 7), ("systemcard", 30)],
)
def test_mlebench_competition_sets_have_their_published_sizes(
    name: str, count: int, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["list", "--competition-set", name]) == 0
    ids = capsys.readouterr().out.split()
    assert len(ids) == count == len(set(ids))


def test_thresholds_from_a_leaderboard_file_are_printed_never_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    import shutil

    root = tmp_path / "repo"
    shutil.copytree(
        EMBEDDED_ROOT / "competitions" / "spaceship-titanic", root / "competitions" / "spaceship-titanic"
    )
    (root / "conf").mkdir()
    monkeypatch.setenv("MLEBENCH_ROOT", str(root))
    declaration = (root / "competitions" / "spaceship-titanic" / "competition.yaml").read_text()
    board = tmp_path / "lb.csv"  # 120 teams: gold is rank 10, silver int(0.2 n) = 24, bronze int(0.4 n) = 48
    board.write_text("score\n" + "\n".join(f"{1 - i / 1000:.3f}" for i in range(120)) + "\n")
    assert main(["thresholds", "-c", "spaceship-titanic", "--leaderboard", str(board)]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed == pytest.approx(
        {"gold": 0.991, "silver": 0.977, "bronze": 0.953, "median": 0.9405, "teams": 120}
    )
    assert main(["thresholds", "-c", "spaceship-titanic", "--leaderboard", str(board), "--write"]) == 2
    assert "--write needs --v1-checkout" in capsys.readouterr().err
    assert (root / "competitions" / "spaceship-titanic" / "competition.yaml").read_text() == declaration


def test_thresholds_reject_a_leaderboard_in_the_wrong_order(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = tmp_path / "lb.csv"
    board.write_text("score\n0.1\n0.5\n0.9\n")  # accuracy is higher-better: this is worst first
    assert main(["thresholds", "-c", "spaceship-titanic", "--leaderboard", str(board)]) == 2
    assert "lb.csv" in capsys.readouterr().err


def test_report_writes_what_the_report_stage_writes(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``mlebench report`` calls the library the report stage calls, with the inputs the plan recorded."""
    from mlebench.reporting import report as library
    from mlebench.reporting.inputs import ReportInputs
    from mlebench_spec.params import load_plan
    from mlebench_spec.yamlio import load_yaml

    calls = []
    monkeypatch.setattr(library, "write_report", lambda *args, **kwargs: calls.append((args, kwargs)) or {})
    monkeypatch.setattr(library, "summary", lambda report: "summary of the report")
    assert main(["report"]) == 0
    assert capsys.readouterr().out.strip() == "summary of the report"
    ((args, kwargs),) = calls
    assert kwargs == {} and args == (ReportInputs.planned(EMBEDDED_ROOT),)
    (inputs,) = args
    stage = load_yaml(EMBEDDED_ROOT / "dvc.yaml")["stages"]["report"]
    plan = load_plan(EMBEDDED_ROOT)
    assert stage["cmd"] == "python -m stages.report"  # nothing to parse back: the inputs are typed, in meta
    assert inputs.agents == tuple(plan.agent) and inputs.seeds == tuple(plan.seeds)
    assert inputs.competitions == tuple(plan.competition_set.ids)
    assert inputs.integrity == any(d.startswith("integrity/") for d in stage["deps"])
    assert inputs.reproduce == (plan.reproduce.headline if "reproduce" in stage["params"] else "")
