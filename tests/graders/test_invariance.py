"""Properties every registered metric must have, checked through the whole read -> validate -> score path.

Parametrised over every entry of ``graders.registry.METRICS``: a new metric is covered the moment it is
registered, provided its input kind has a generator in ``_GENERATORS`` (a test fails if not).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from graders.errors import InvalidSubmission
from graders.registry import KINDS, METRICS, Metric
from graders.rle import rle_encode
from graders.submission import read_answers, read_submission, validate
from mlebench.declarations import Submission

N = 24
IDS = [f"{i:04d}" for i in range(N)]  # zero-padded on purpose: ids are strings, never numbers


@dataclass
class Case:
    """Synthetic answers for one kind, a perfect and a worse submission, and a value the kind rejects."""

    answers: pd.DataFrame
    worse: pd.DataFrame
    bad_value: str
    bad_reason: str
    args: dict = field(default_factory=dict)

    @property
    def perfect(self) -> pd.DataFrame:
        """A submission equal to the answers."""
        return self.answers.copy()

    @property
    def spec(self) -> Submission:
        """The ``submission:`` block matching the answers' columns."""
        return Submission(id_column="id", columns=list(self.answers.columns))


def _frame(**columns) -> pd.DataFrame:
    return pd.DataFrame({"id": IDS, **{k: [str(v) for v in vs] for k, vs in columns.items()}})


def _labels(rng: np.random.Generator) -> Case:
    truth = rng.choice(["cat", "dog", "bird"], N)
    worse = truth.copy()
    worse[:8] = np.where(truth[:8] == "cat", "dog", "cat")
    return Case(_frame(label=truth), _frame(label=worse), "", "empty value")


def _binary_probability(rng: np.random.Generator) -> Case:
    truth = rng.permutation([0, 1] * (N // 2))
    worse = np.where(truth == 1, 0.7, 0.3)
    worse[:4] = 1 - worse[:4]  # four rows ranked on the wrong side
    return Case(_frame(target=truth), _frame(target=worse), "nan", "NaN value")


def _regression(rng: np.random.Generator) -> Case:
    truth = np.round(rng.uniform(0, 100, N), 3)
    worse = truth + np.round(rng.uniform(1, 10, N), 3)
    return Case(_frame(target=truth), _frame(target=worse), "nan", "NaN value")


def _probabilities(rng: np.random.Generator) -> Case:
    one_hot = np.eye(3, dtype=int)[rng.integers(0, 3, N)]
    worse = np.where(one_hot == 1, 0.6, 0.2)
    return Case(
        _frame(A=one_hot[:, 0], B=one_hot[:, 1], C=one_hot[:, 2]),
        _frame(A=worse[:, 0], B=worse[:, 1], C=worse[:, 2]),
        "nan",
        "NaN value",
    )


def _rle_mask(rng: np.random.Generator) -> Case:
    height, width = 6, 5
    truth = rng.random((N, height, width)) < 0.4
    truth[:3] = False  # a few empty images
    worse = truth.copy()
    worse[3:12] = rng.random((9, height, width)) < 0.4
    return Case(
        _frame(mask=[rle_encode(m) for m in truth]),
        _frame(mask=[rle_encode(m) for m in worse]),
        "nan",
        "malformed RLE",
        args={"height": height, "width": width},
    )


_GENERATORS = {
    "labels": _labels,
    "binary_probability": _binary_probability,
    "regression": _regression,
    "probabilities": _probabilities,
    "rle_mask": _rle_mask,
}
ALL_METRICS = pytest.mark.parametrize("metric", list(METRICS.values()), ids=list(METRICS))


def _case(metric: Metric) -> Case:
    return _GENERATORS[metric.kind](np.random.default_rng(0))


def _score(case: Case, metric: Metric, submission: pd.DataFrame, tmp_path: Path) -> float:
    """Write both files, read them back the official way, validate and score."""
    case.answers.to_csv(tmp_path / "answers.csv", index=False)
    submission.to_csv(tmp_path / "submission.csv", index=False)
    y_true, y_pred = validate(
        read_submission(tmp_path / "submission.csv"),
        read_answers(tmp_path / "answers.csv"),
        case.spec,
        metric,
        metric_args=case.args,
    )
    return metric.fn(y_true, y_pred, **case.args)


def _reasons(case: Case, metric: Metric, submission: pd.DataFrame, tmp_path: Path) -> str:
    with pytest.raises(InvalidSubmission) as caught:
        _score(case, metric, submission, tmp_path)
    return str(caught.value)


def test_every_kind_has_a_generator():
    assert set(_GENERATORS) == set(KINDS)


@ALL_METRICS
def test_perfect_prediction_scores_best(metric, tmp_path):
    case = _case(metric)
    assert _score(case, metric, case.perfect, tmp_path) == pytest.approx(metric.best, abs=1e-9)


@ALL_METRICS
def test_worse_prediction_scores_worse(metric, tmp_path):
    case = _case(metric)
    perfect = _score(case, metric, case.perfect, tmp_path)
    worse = _score(case, metric, case.worse, tmp_path)
    assert worse < perfect if metric.higher_is_better else worse > perfect


@ALL_METRICS
def test_shuffling_rows_and_columns_changes_nothing(metric, tmp_path):
    case = _case(metric)
    shuffled = case.worse.sample(frac=1, random_state=1)[list(reversed(case.worse.columns))]
    assert _score(case, metric, shuffled, tmp_path) == pytest.approx(
        _score(case, metric, case.worse, tmp_path), abs=1e-12
    )


@ALL_METRICS
def test_a_missing_id_is_invalid(metric, tmp_path):
    case = _case(metric)
    reasons = _reasons(case, metric, case.perfect.drop(index=5), tmp_path)
    assert f"missing ids: 1 of the {N} ids in the answers are not in column 'id': '0005'" in reasons
    assert f"wrong number of rows: expected {N}" in reasons


@ALL_METRICS
def test_an_extra_id_is_invalid(metric, tmp_path):
    case = _case(metric)
    extra = case.perfect.iloc[[0]].assign(id="9999")
    reasons = _reasons(case, metric, pd.concat([case.perfect, extra]), tmp_path)
    assert "unexpected ids: 1 id in column 'id' is not in the answers: '9999'" in reasons


@ALL_METRICS
def test_a_duplicate_id_is_invalid(metric, tmp_path):
    case = _case(metric)
    reasons = _reasons(case, metric, pd.concat([case.perfect, case.perfect.iloc[[3]]]), tmp_path)
    assert "duplicate ids in column 'id': 1 id appears more than once: '0003' (2 times)" in reasons


@ALL_METRICS
def test_a_nan_is_invalid(metric, tmp_path):
    case = _case(metric)
    submission = case.perfect
    submission.iloc[7, 1] = case.bad_value
    reasons = _reasons(case, metric, submission, tmp_path)
    assert case.bad_reason in reasons
    assert "id '0007'" in reasons


@ALL_METRICS
def test_a_renamed_column_is_invalid(metric, tmp_path):
    case = _case(metric)
    target = case.spec.target_columns[0]
    reasons = _reasons(case, metric, case.perfect.rename(columns={target: "prediction"}), tmp_path)
    assert f"missing columns: {target!r}" in reasons
    assert "unexpected columns: 'prediction'" in reasons


@ALL_METRICS
def test_a_dropped_column_is_invalid(metric, tmp_path):
    case = _case(metric)
    target = case.spec.target_columns[-1]
    reasons = _reasons(case, metric, case.perfect.drop(columns=[target]), tmp_path)
    assert f"missing columns: {target!r}" in reasons


@ALL_METRICS
def test_a_missing_id_column_is_invalid(metric, tmp_path):
    case = _case(metric)
    reasons = _reasons(case, metric, case.perfect.drop(columns=["id"]), tmp_path)
    assert "missing columns: 'id'" in reasons


@ALL_METRICS
def test_ids_are_compared_as_strings(metric, tmp_path):
    """``0007`` and ``7`` are different ids, although MLE-bench's type inference merges them."""
    case = _case(metric)
    unpadded = case.perfect.assign(id=[str(int(i)) for i in IDS])
    reasons = _reasons(case, metric, unpadded, tmp_path)
    assert f"missing ids: {N} of the {N} ids" in reasons
