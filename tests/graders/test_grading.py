"""``grade``: one submission file in, one GradeResult out (named test_grading to keep module names unique)."""

from __future__ import annotations

import dataclasses

import pytest

from graders.errors import InvalidSubmission
from graders.grade import GradeResult, grade
from graders.medals import Thresholds
from mlebench_spec.declarations import Competition


def _competition(tmp_path, monkeypatch, *, metric: dict, columns: list[str], answers: str, leaderboard: str):
    """Create a competition folder under a temporary repository root, and its private answers."""
    monkeypatch.setenv("MLEBENCH_ROOT", str(tmp_path))
    folder = tmp_path / "competitions" / "toy"
    folder.mkdir(parents=True)
    (folder / "leaderboard.csv").write_text(leaderboard)
    private = tmp_path / "private"
    private.mkdir()
    (private / "answers.csv").write_text(answers)
    comp = Competition.model_validate(
        {
            "id": "toy",
            "name": "Toy",
            "version": 1,
            "complexity": "dev",
            "category": "tabular",
            "dataset_size": "tiny",
            "source": {
                "kind": "package",
                "module": "toy",
                "distribution": "toy",
                "version": "1",
                "files": [{"path": "toy.csv"}],
            },
            "split": {"method": "keep_source"},
            "submission": {"id_column": columns[0], "columns": columns},
            "metric": metric,
        }
    )
    return comp, private


@pytest.fixture
def accuracy_comp(tmp_path, monkeypatch):
    return _competition(
        tmp_path,
        monkeypatch,
        metric={"name": "accuracy"},
        columns=["id", "label"],
        answers="id,label\n1,a\n2,b\n3,a\n",
        leaderboard="team,score\n" + "".join(f"t{i},{1 - i / 10}\n" for i in range(10)),
    )


def _submit(tmp_path, text: str, name: str = "submission.csv"):
    path = tmp_path / name
    path.write_text(text)
    return path


def test_a_perfect_submission_wins_gold(accuracy_comp, tmp_path):
    comp, private = accuracy_comp
    result = grade(comp, _submit(tmp_path, "label,id\na,3\nb,2\na,1\n"), private)
    assert (result.status, result.reason, result.score) == ("ok", "", 1.0)
    assert result.medals.gold and result.medals.any_medal and result.medals.above_median
    assert result.submission_exists and result.valid_submission and not result.is_lower_better
    assert result.thresholds == Thresholds(gold=1.0, silver=0.9, bronze=0.7, median=0.55)
    assert result.grade_seconds >= 0


def test_scores_are_rounded_to_five_decimals(accuracy_comp, tmp_path):
    comp, private = accuracy_comp
    result = grade(comp, _submit(tmp_path, "id,label\n1,a\n2,a\n3,a\n"), private)
    assert result.score == 0.66667
    assert not result.medals.any_medal and result.medals.above_median


def test_a_missing_file_is_no_submission(accuracy_comp, tmp_path):
    comp, private = accuracy_comp
    result = grade(comp, tmp_path / "submission.csv", private)
    assert result.status == "no_submission"
    assert result.reason == f"no submission file at {tmp_path / 'submission.csv'}"
    assert result.score is None and not result.submission_exists and not result.valid_submission
    assert not result.medals.any_medal and not result.medals.above_median
    assert result.thresholds.gold == 1.0  # thresholds are reported whatever happened


def test_an_invalid_submission_keeps_every_reason(accuracy_comp, tmp_path):
    comp, private = accuracy_comp
    result = grade(comp, _submit(tmp_path, "id,label,extra\n1,a,x\n1,b,y\n"), private)
    assert result.status == "invalid_submission"
    assert result.score is None and result.submission_exists and not result.valid_submission
    assert not result.medals.any_medal
    assert "unexpected columns: 'extra'" in result.reason
    assert "duplicate ids in column 'id'" in result.reason
    assert "missing ids: 2 of the 3 ids" in result.reason


def test_an_unreadable_file_is_an_invalid_submission(accuracy_comp, tmp_path):
    comp, private = accuracy_comp
    result = grade(comp, _submit(tmp_path, "id,label\n1,a\n", name="submission.txt"), private)
    assert (result.status, result.reason) == ("invalid_submission", "'submission.txt' is not a .csv file")
    assert result.submission_exists


def test_a_broken_answers_file_is_a_grader_error_not_an_invalid_submission(accuracy_comp, tmp_path):
    comp, private = accuracy_comp
    (private / "answers.csv").write_text("id,label\n1,a\n1,b\n")
    with pytest.raises(ValueError, match="the answers repeat ids") as caught:
        grade(comp, _submit(tmp_path, "id,label\n1,a\n"), private)
    assert not isinstance(caught.value, InvalidSubmission)


def test_a_missing_answers_file_is_a_grader_error(accuracy_comp, tmp_path):
    comp, private = accuracy_comp
    (private / "answers.csv").unlink()
    with pytest.raises(ValueError, match="no file at"):
        grade(comp, _submit(tmp_path, "id,label\n1,a\n"), private)


def test_an_unknown_metric_is_a_grader_error(accuracy_comp, tmp_path):
    comp, private = accuracy_comp
    broken = comp.model_copy(update={"metric": comp.metric.model_copy(update={"name": "accuracy2"})})
    with pytest.raises(KeyError, match="unknown metric 'accuracy2'"):
        grade(broken, _submit(tmp_path, "id,label\n1,a\n"), private)


def test_the_direction_comes_from_the_registry(tmp_path, monkeypatch):
    comp, private = _competition(
        tmp_path,
        monkeypatch,
        metric={"name": "rmse"},
        columns=["id", "y"],
        answers="id,y\na,1\nb,2\nc,3\n",
        leaderboard="score\n0.1\n0.2\n0.3\n0.4\n0.5\n",
    )
    result = grade(comp, _submit(tmp_path, "id,y\na,1\nb,2\nc,3.3\n"), private)
    assert result.is_lower_better
    assert result.score == 0.17321  # sqrt(0.09 / 3) = 0.173205...
    # 5 teams: gold and silver are the 1st score (0.1), bronze the 2nd (0.2); lower scores win.
    assert result.medals.bronze and not result.medals.silver and result.medals.above_median


def test_metric_arguments_reach_the_metric_and_the_validation(tmp_path, monkeypatch):
    comp, private = _competition(
        tmp_path,
        monkeypatch,
        metric={"name": "dice_rle", "args": {"height": 2, "width": 2}},
        columns=["id", "mask"],
        answers="id,mask\na,1 2\nb,\n",
        leaderboard="score\n0.9\n0.5\n",
    )
    assert grade(comp, _submit(tmp_path, "id,mask\na,1 1\nb,\n"), private).score == 0.83333  # (2/3 + 1) / 2
    result = grade(comp, _submit(tmp_path, "id,mask\na,1 5\nb,\n"), private)
    assert result.status == "invalid_submission"
    assert "past the last pixel 4 of a 2x2 mask" in result.reason


def test_to_dict_uses_mlebench_field_names(accuracy_comp, tmp_path):
    comp, private = accuracy_comp
    record = grade(comp, _submit(tmp_path, "id,label\n1,a\n2,b\n3,a\n"), private).to_dict()
    assert record["gold_threshold"] == 1.0 and record["gold_medal"] and record["status"] == "ok"
    assert set(record) >= {
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
        "status",
        "reason",
    }


def test_the_result_is_frozen(accuracy_comp, tmp_path):
    comp, private = accuracy_comp
    result = grade(comp, tmp_path / "none.csv", private)
    assert isinstance(result, GradeResult)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.score = 1.0  # type: ignore[misc]
