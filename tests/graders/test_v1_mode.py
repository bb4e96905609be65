"""``grading.mode``: v1's pairing (``submission.v1``) against strict grading, one case per difference.

The cases live in ``cases/v1_mode.json``; their ``v1`` values come from running MLE-bench v1's own grader
for each competition on the same two files, from a scratch checkout outside the repository (nothing of v1
is in this repository). ``strict`` is today's behaviour: a score, or a refusal whose reason is named.
A case whose repeated ids v1 pairs in numpy's (unstable, CPU-dependent) quicksort order records the order
numpy gave where its value was obtained, and is skipped where numpy sorts those ids otherwise (v1's own
score differs there too).
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from graders.errors import InvalidSubmission
from graders.grade import grade
from graders.v1_matching import as_v1
from mlebench.reporting.html import to_html
from mlebench.reporting.markdown import to_markdown
from mlebench.reporting.report import ReportData, aggregate
from mlebench_spec.declarations import all_competition_ids, load_competition

_ALL = json.loads((Path(__file__).parent / "cases" / "v1_mode.json").read_text(encoding="utf-8"))
CASES = _ALL["cases"]
V1_ONLY = _ALL["v1_only"]["cases"]
NOT_REPRODUCED = _ALL["not_reproduced"]["cases"]


def _skip_unless_numpy_sorts_as_recorded(case: dict) -> None:
    """v1's value holds where numpy's quicksort orders the repeated ids as it did when it was obtained."""
    recorded = case.get("quicksort")
    if recorded is None:
        return
    comp = load_competition(case["competition"])
    for side in ("answers", "submission"):
        ids = pd.read_csv(pd.io.common.StringIO(case[side]))[comp.submission.id_column].to_numpy()
        if np.argsort(ids, kind="quicksort").tolist() != recorded[side]:
            pytest.skip(f"numpy's quicksort orders the {side}' repeated ids otherwise on this machine")


def _write(tmp_path: Path, case: dict) -> tuple[Path, Path]:
    comp = load_competition(case["competition"])
    private = tmp_path / "private"
    private.mkdir()
    (private / comp.submission.answers).write_text(case["answers"], encoding="utf-8")
    submission = tmp_path / "submission.csv"
    submission.write_text(case["submission"], encoding="utf-8")
    return submission, private


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_each_declared_difference_scores_as_v1_in_v1_mode_and_as_today_in_strict(tmp_path, case) -> None:
    _skip_unless_numpy_sorts_as_recorded(case)
    comp = load_competition(case["competition"])
    submission, private = _write(tmp_path, case)
    v1 = grade(comp, submission, private, "v1")
    strict = grade(comp, submission, private, "strict")
    for result, mode in ((v1, "v1"), (strict, "strict")):
        if case[mode] is None:
            assert result.status == "invalid_submission"
            assert case[f"{mode}_reason"] in result.reason
        elif case[mode] == "nan":  # v1's grader scores NaN
            assert result.status == "ok" and math.isnan(result.score), result.reason
        else:
            assert (result.status, result.score) == ("ok", pytest.approx(case[mode])), result.reason
    # the modes disagree, so both records carry both verdicts, and each says which mode decided it
    for result, mode in ((v1, "v1"), (strict, "strict")):
        fields = result.to_dict()
        assert fields["grading_mode"] == mode
        for which, verdict in ((v1, "v1"), (strict, "strict")):
            shown = fields["mode_verdicts"][verdict]
            assert (shown["status"], shown["reason"]) == (which.status, which.reason)
            assert shown["score"] == which.score or math.isnan(shown["score"]) and math.isnan(which.score)


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_the_well_formed_submission_agrees_in_both_modes(tmp_path, case) -> None:
    """The answers themselves, in their order, score the same in both modes and record no disagreement."""
    comp = load_competition(case["competition"])
    if comp.submission.gold:
        pytest.skip("the answers' own columns are not a submission here (submission.gold)")
    answers = pd.read_csv(pd.io.common.StringIO(case["answers"]), dtype=str, keep_default_na=False)
    gold = dict(case, submission=answers[comp.submission.columns].to_csv(index=False))
    submission, private = _write(tmp_path, gold)
    v1, strict = (grade(comp, submission, private, m) for m in ("v1", "strict"))
    assert v1.status == strict.status == "ok"
    assert v1.score == strict.score or (math.isinf(v1.score) and math.isinf(strict.score))
    assert v1.verdicts == strict.verdicts == {}


@pytest.mark.parametrize("case", V1_ONLY, ids=[c["name"] for c in V1_ONLY])
def test_v1_mode_gives_v1s_verdict(tmp_path, case) -> None:
    """Refusals, NaN scores and subsets: v1 mode gives what v1's grader gave on the same two files."""
    comp = load_competition(case["competition"])
    submission, private = _write(tmp_path, case)
    result = grade(comp, submission, private, "v1")
    if case["v1"] is None:
        assert result.status == "invalid_submission"
        assert case["v1_reason"] in result.reason
    elif case["v1"] == "nan":
        assert result.status == "ok" and math.isnan(result.score), result.reason
    else:
        assert (result.status, result.score) == ("ok", pytest.approx(case["v1"])), result.reason


@pytest.mark.parametrize("case", NOT_REPRODUCED, ids=[c["name"] for c in NOT_REPRODUCED])
def test_what_v1_mode_cannot_pair_as_v1_is_refused_with_the_reason(tmp_path, case) -> None:
    """Where no one-to-one pairing of rows gives v1's score, v1 mode refuses and says why.

    uw-madison: v1 scores a shorter file, or rows whose ids the answers lack or over-count, by building its
    Hausdorff volumes from the submission's own ids while Dice pairs rows by position (``case["v1"]`` is the
    score v1 gives, for the record).
    """
    comp = load_competition(case["competition"])
    submission, private = _write(tmp_path, case)
    result = grade(comp, submission, private, "v1")
    assert case["v1"] is not None
    assert result.status == "invalid_submission" and case["v1_reason"] in result.reason


def test_v1_refuses_what_its_grader_refuses(tmp_path) -> None:
    """Position pairing still needs v1's row count (its InvalidSubmissionError); a merge needs v1's id set."""
    case = next(c for c in CASES if c["name"] == "nomad_shuffled_rows")
    comp = load_competition(case["competition"])
    short = case["submission"].rsplit("\n", 2)[0] + "\n"
    submission, private = _write(tmp_path, dict(case, submission=short))
    result = grade(comp, submission, private, "v1")
    assert result.status == "invalid_submission"
    assert "row count must be the answers'" in result.reason
    answers = pd.DataFrame({"segment_id": ["7", "8"], "time_to_eruption": ["1", "2"]})
    repeated = pd.DataFrame({"segment_id": ["7", "7", "9"], "time_to_eruption": ["1", "1", "2"]})
    with pytest.raises(InvalidSubmission, match="set of 'segment_id' values"):
        as_v1(repeated, answers, load_competition("predict-volcanic-eruptions-ingv-oe").submission)


def test_an_unknown_mode_is_an_error_naming_the_modes(tmp_path) -> None:
    comp = load_competition("titanic-lite")
    with pytest.raises(ValueError, match=r"'lenient' is not one of \['v1', 'strict'\]"):
        grade(comp, tmp_path / "none.csv", tmp_path, "lenient")  # type: ignore[arg-type]


def test_every_v1_rule_is_a_known_issue_of_kind_v1_mode() -> None:
    """A competition declaring ``submission.v1`` lists the difference; one listing it declares the rule."""
    for cid in all_competition_ids():
        comp = load_competition(cid)
        kinds = {issue.kind for issue in comp.known_issues}
        assert (comp.submission.v1 is not None) == ("v1_mode" in kinds), cid


def test_every_declared_v1_rule_has_a_case() -> None:
    declared = {c for c in all_competition_ids() if load_competition(c).submission.v1 is not None}
    assert declared == {c["competition"] for c in CASES}


def test_the_report_flags_cells_whose_modes_disagree() -> None:
    verdicts = {
        "v1": {"status": "ok", "score": 0.30799, "reason": ""},
        "strict": {"status": "invalid_submission", "score": None, "reason": "rows are matched by position"},
    }
    base = {"agent": "a", "seed": 0, "score": None, "any_medal": False, "gold_medal": False}
    base |= {"silver_medal": False, "bronze_medal": False, "above_median": False, "reason": ""}
    base |= {"submission_exists": True, "gold_threshold": 0.1, "silver_threshold": 0.2}
    base |= {"bronze_threshold": 0.3, "median_threshold": 0.4}
    records = [
        {
            **base,
            "competition_id": "x",
            "status": "ok",
            "score": 0.30799,
            "valid_submission": True,
            "grading_mode": "v1",
            "mode_verdicts": verdicts,
        },
        {
            **base,
            "competition_id": "y",
            "status": "ok",
            "score": 1.0,
            "valid_submission": True,
            "grading_mode": "v1",
        },
    ]
    report = aggregate(ReportData(records, ["a"], ["x", "y"], [0], "custom", {"x": "low", "y": "low"}))
    assert report["grading_modes"] == ["v1"]
    assert [(d["competition_id"], d["v1"]["score"]) for d in report["mode_differences"]] == [("x", 0.30799)]
    text = to_markdown(report)
    assert "## Grading-mode differences" in text
    assert "| a | x | 0 | v1 | ok 0.30799 | invalid_submission: rows are matched by position |" in text
    assert "| a | x | 0 | ok (modes differ) |" in text
    assert "| a | y | 0 | ok |" in text
    page = to_html(report)
    assert "<h3>Grading-mode differences</h3>" in page
    assert "a/x/seed 0</code> (graded v1): v1 ok 0.30799" in page
    assert page.count("(modes differ)") == 1


def _nomad(tmp_path: Path) -> tuple[dict, Path]:
    case = next(c for c in CASES if c["name"] == "nomad_shuffled_rows")
    private = tmp_path / "data" / case["competition"] / "private"
    private.mkdir(parents=True)
    (private / "test.csv").write_text(case["answers"], encoding="utf-8")
    (tmp_path / "submission.csv").write_text(case["submission"], encoding="utf-8")
    return case, private


@pytest.mark.parametrize("mode", ["v1", "strict"])
def test_grade_sample_takes_the_mode(tmp_path, capsys, mode) -> None:
    from mlebench.cli import main

    case, _ = _nomad(tmp_path)
    argv = ["grade-sample", str(tmp_path / "submission.csv"), case["competition"]]
    assert main([*argv, "--data-dir", str(tmp_path / "data"), "--mode", mode]) == 0
    printed = json.loads(capsys.readouterr().out)
    assert printed["grading_mode"] == mode
    assert printed["score"] == (case["v1"] if mode == "v1" else None)
    assert set(printed["mode_verdicts"]) == {"v1", "strict"}


@pytest.mark.parametrize("mode", ["v1", "strict"])
def test_a_graded_cell_records_its_mode_and_both_verdicts(tmp_path, mode) -> None:
    from mlebench.execution.grading import grade_cell
    from mlebench_spec.cell import Cell
    from mlebench_spec.paths import repo_root

    case, private = _nomad(tmp_path)
    run_dir = tmp_path / "run"
    run_dir.mkdir()
    (run_dir / "submission.csv").write_text(case["submission"], encoding="utf-8")
    public = tmp_path / "public"
    public.mkdir()
    cell = Cell(case["competition"], "dummy", 0, repo_root(), public, private, run_dir)
    record = grade_cell(cell, grader="host", mode=mode).to_json()
    assert record["grading_mode"] == mode
    assert record["score"] == (case["v1"] if mode == "v1" else None)  # (no run.json here: status infra_error)
    assert record["mode_verdicts"]["v1"]["score"] == case["v1"]
    assert "matched by position" in record["mode_verdicts"]["strict"]["reason"]


def test_v1_missing_cells_must_name_submission_columns() -> None:
    from mlebench_spec.declarations import Submission
    from mlebench_spec.schema import SchemaError

    with pytest.raises(SchemaError, match=r"names columns not in submission.columns: \['c'\]"):
        Submission(id_column="a", columns=["a", "b"], v1={"missing_cells": {"c": "0"}})
    assert Submission(id_column="a", columns=["a", "b"], v1={"missing_cells": {"b": "0"}}).v1 is not None
