"""Golden cases and edge cases for ``log_loss`` (MLE-bench's scikit-learn >= 1.5 behaviour)."""

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import log_loss as sklearn_log_loss

from graders.metrics.log_loss import EPS, log_loss

CASES = json.loads((Path(__file__).parent / "cases" / "log_loss.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    got = log_loss(case["y_true"], case["y_pred"])
    assert got == pytest.approx(case["expected"], abs=case.get("abs", 1e-12))


@pytest.mark.parametrize("seed", range(3))
def test_agrees_with_scikit_learn_on_one_hot_answers(seed):
    """MLE-bench calls ``sklearn.metrics.log_loss(one_hot_answers, predictions)``; we must match it."""
    rng = np.random.default_rng(seed)
    classes = rng.integers(0, 4, 100)
    y_true = np.eye(4)[classes]
    y_pred = rng.dirichlet(np.ones(4), 100)
    y_pred[:5] = np.eye(4)[(classes[:5] + 1) % 4]  # a few certain misses, where clipping matters
    assert log_loss(y_true, y_pred) == pytest.approx(sklearn_log_loss(y_true, y_pred), rel=1e-12)


def test_clips_at_float64_machine_epsilon():
    assert EPS == 2.0**-52
    assert log_loss([[1, 0]], [[0.0, 1.0]]) == pytest.approx(-np.log(2.0**-52))


def test_does_not_renormalise_rows():
    """Validation guarantees rows sum to 1; the metric itself scores exactly what it is given."""
    assert log_loss([[1, 0]], [[0.25, 0.25]]) == pytest.approx(np.log(4))


def test_needs_two_dimensional_input():
    with pytest.raises(ValueError, match="2-D"):
        log_loss([1, 0], [0.9, 0.1])
