"""Golden cases for ``mae``."""

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import mean_absolute_error

from graders.metrics import mae

CASES = json.loads((Path(__file__).parent / "cases" / "mae.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    assert mae(case["y_true"], case["y_pred"]) == pytest.approx(case["expected"], abs=1e-12)


def test_agrees_with_scikit_learn():
    rng = np.random.default_rng(0)
    y_true, y_pred = rng.normal(size=50), rng.normal(size=50)
    assert mae(y_true, y_pred) == pytest.approx(mean_absolute_error(y_true, y_pred), rel=1e-12)
