"""The MLOps set's metrics, on cases worked out by hand, and their validation through the official path."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from graders.errors import InvalidSubmission
from graders.metrics.ab_tests import ab_test_points, ab_test_score
from graders.metrics.change_points import change_point_f1, matches
from graders.registry import get_metric
from graders.submission import read_answers, read_submission, validate
from mlebench_spec.declarations import Submission

# ----------------------------------------------------------------------------------- change_point_f1


def test_change_point_f1_by_hand() -> None:
    # stream 1: truth 100, 300; found 95 (hit 100, 5 away), 310 (hit 300, 10 away: the edge counts)
    # stream 2: truth 500; found 489 (11 away: a miss, so one FP and one FN), 700 (FP)
    # TP 2, FP 2, FN 1 -> F1 = 4 / (4 + 2 + 1) = 4/7
    score = change_point_f1(["100 300", "500"], ["95 310", "489 700"], margin=10)
    assert score == pytest.approx(4 / 7)


def test_one_detection_hits_one_change_and_the_closest_pair_wins() -> None:
    # truth 100 and 115, detections 108 and 120; candidate pairs by distance: 115-120 (5), 115-108 (7),
    # 100-108 (8). Closest first: 115-120, then 115-108 is skipped (115 is taken), then 100-108: two hits
    assert matches([100, 115], [108, 120], margin=10) == 2
    # two detections near one change: one hit, one false positive
    assert change_point_f1(["100"], ["98 103"], margin=10) == pytest.approx(2 / 3)


def test_repeated_positions_count_once_and_blank_finds_nothing() -> None:
    assert change_point_f1(["100"], ["100 100"], margin=10) == 1.0
    assert change_point_f1(["100 200"], [""], margin=10) == 0.0
    assert change_point_f1([""], [""], margin=10) == 1.0  # nothing to find, nothing found


def test_the_margin_is_an_argument() -> None:
    assert change_point_f1(["100"], ["104"], margin=3) == 0.0
    assert change_point_f1(["100"], ["104"], margin=4) == 1.0


# -------------------------------------------------------------------------------------- ab_test_score


def _truth(rows: list[tuple[int, float, float]]) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "decision": [str(d) for d, _, _ in rows],
            "true_effect": [str(e) for _, e, _ in rows],
            "max_width": [str(w) for _, _, w in rows],
        }
    )


def test_ab_points_by_hand() -> None:
    truth = _truth(
        [(1, 2.0, 4.0), (0, 0.0, 4.0), (0, -1.0, 4.0), (-1, 3.0, 4.0), (-1, 3.0, 4.0), (1, 2.0, 4.0)]
    )
    pred = pd.DataFrame(
        {
            "lower": [1.0, 0.0, -3.0, 0.0, 2.0, -10.0],
            "upper": [3.0, 1.0, 0.0, 0.0, 4.0, 10.0],
            "decision": [1.0, 0.0, 0.0, -1.0, 1.0, 1.0],
        }
    )
    # 1: right decision (0.5) + covers 2 within width 2 <= 4 (0.5) = 1
    # 2: right decision; 0 < 0 is false (strict): the interval [0, 1] does not cover 0 -> 0.5
    # 3: right decision; covers -1, width 3 -> 1
    # 4: invalid experiment called invalid -> 1 (the interval does not matter)
    # 5: invalid experiment shipped -> 0
    # 6: right decision, covers 2, but width 20 > 4 -> 0.5
    assert ab_test_points(truth, pred).tolist() == [1.0, 0.5, 1.0, 1.0, 0.0, 0.5]
    assert ab_test_score(truth, pred) == pytest.approx(4.0 / 6.0)


def test_calling_a_valid_experiment_invalid_loses_the_decision_point_only() -> None:
    truth = _truth([(0, -1.0, 4.0)])
    pred = pd.DataFrame({"lower": [-2.0], "upper": [0.0], "decision": [-1.0]})
    assert ab_test_score(truth, pred) == 0.5


# ------------------------------------------------------------------------------- through validation


def _grade(
    tmp_path: Path, metric: str, answers: pd.DataFrame, submission: pd.DataFrame, spec: Submission, **args
):
    answers.to_csv(tmp_path / "answers.csv", index=False)
    submission.to_csv(tmp_path / "submission.csv", index=False)
    entry = get_metric(metric)
    y_true, y_pred = validate(
        read_submission(tmp_path / "submission.csv"),
        read_answers(tmp_path / "answers.csv"),
        spec,
        entry,
        metric_args=args,
    )
    return entry.fn(y_true, y_pred, **args)


def test_positions_are_validated_and_scored(tmp_path: Path) -> None:
    spec = Submission(id_column="series_id", columns=["series_id", "change_points"])
    answers = pd.DataFrame({"series_id": [1, 2], "change_points": ["100 300", "500"]})
    good = pd.DataFrame({"series_id": [2, 1], "change_points": ["489 700", "95 310"]})
    assert _grade(tmp_path, "change_point_f1", answers, good, spec, margin=10) == pytest.approx(4 / 7)
    blank = pd.DataFrame({"series_id": [1, 2], "change_points": ["", "500"]})
    assert _grade(tmp_path, "change_point_f1", answers, blank, spec, margin=10) == pytest.approx(2 / 4)
    bad = pd.DataFrame({"series_id": [1, 2], "change_points": ["100;300", "-5"]})
    with pytest.raises(InvalidSubmission) as caught:
        _grade(tmp_path, "change_point_f1", answers, bad, spec, margin=10)
    text = str(caught.value)
    assert (
        "column 'change_points': 2 values are not blank or a whitespace-separated list of whole numbers"
        in text
    )
    assert "'100;300'" in text and "'-5'" in text


def test_ab_submissions_are_validated(tmp_path: Path) -> None:
    spec = Submission(
        id_column="experiment_id",
        columns=["experiment_id", "estimate", "lower", "upper", "decision"],
        answer_columns=["true_effect", "max_width"],
    )
    answers = pd.DataFrame(
        {
            "experiment_id": [7, 8],
            "estimate": [2.0, 0.0],
            "lower": [1.0, -1.0],
            "upper": [3.0, 1.0],
            "decision": [1, -1],
            "true_effect": [2.0, 0.0],
            "max_width": [4.0, 4.0],
        }
    )
    good = pd.DataFrame(
        {
            "experiment_id": [8, 7],
            "estimate": [0, 2],
            "lower": [0, 1.5],
            "upper": [0, 2.5],
            "decision": [-1, 1],
        }
    )
    assert _grade(tmp_path, "ab_test_score", answers, good, spec) == 1.0
    bad = pd.DataFrame(
        {"experiment_id": [7, 8], "estimate": [2, 0], "lower": [3, 0], "upper": [1, 0], "decision": [2, 1]}
    )
    with pytest.raises(InvalidSubmission) as caught:
        _grade(tmp_path, "ab_test_score", answers, bad, spec)
    text = str(caught.value)
    assert "column 'lower': 1 row is above its upper bound: id '7': lower 3 > upper 1" in text
    assert (
        "column 'decision': 1 value is not -1 (invalid experiment), 0 (do not ship) or 1 (ship): id '7': 2"
        in text
    )
