"""Golden cases for ``rmsle``."""

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import root_mean_squared_log_error

from graders.metrics.regression import rmsle

CASES = json.loads((Path(__file__).parent / "cases" / "rmsle.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    assert rmsle(case["y_true"], case["y_pred"]) == pytest.approx(case["expected"], abs=1e-12)


def test_agrees_with_scikit_learn():
    rng = np.random.default_rng(0)
    y_true, y_pred = rng.exponential(size=50) * 100, rng.exponential(size=50) * 100
    assert rmsle(y_true, y_pred) == pytest.approx(root_mean_squared_log_error(y_true, y_pred), rel=1e-12)


@pytest.mark.parametrize(("y_true", "y_pred"), [([1.0, -0.5], [1.0, 1.0]), ([1.0, 1.0], [1.0, -0.5])])
def test_negative_values_are_an_error(y_true, y_pred):
    with pytest.raises(ValueError, match="negative"):
        rmsle(y_true, y_pred)
