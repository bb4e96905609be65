"""Golden cases for ``rmse``."""

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import root_mean_squared_error

from graders.metrics.regression import rmse

CASES = json.loads((Path(__file__).parent / "cases" / "rmse.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    assert rmse(case["y_true"], case["y_pred"]) == pytest.approx(case["expected"], abs=1e-12)


def test_agrees_with_scikit_learn():
    rng = np.random.default_rng(0)
    y_true, y_pred = rng.normal(size=50), rng.normal(size=50)
    assert rmse(y_true, y_pred) == pytest.approx(root_mean_squared_error(y_true, y_pred), rel=1e-12)


def test_rejects_misaligned_input():
    with pytest.raises(ValueError, match="same shape"):
        rmse([1.0, 2.0], [1.0])
