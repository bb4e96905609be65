"""Golden cases for ``mae``."""

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import mean_absolute_error

from graders.metrics.regression import mae

CASES = json.loads((Path(__file__).parent / "cases" / "mae.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    assert mae(case["y_true"], case["y_pred"]) == pytest.approx(case["expected"], abs=1e-12)


def test_agrees_with_scikit_learn():
    rng = np.random.default_rng(0)
    y_true, y_pred = rng.normal(size=50), rng.normal(size=50)
    assert mae(y_true, y_pred) == pytest.approx(mean_absolute_error(y_true, y_pred), rel=1e-12)


@pytest.mark.parametrize(
    ("y_pred", "expected"),
    [([1.0, 2.0], 2.0), ([1.0, 4.0], 2.0), ([2.0, 5.0], 4.0), ([1.0, 1.6], 1.0)],
    ids=["1.5-to-even", "2.5-to-even", "3.5-to-even", "1.3-down"],
)
def test_to_integer_rounds_halves_to_even_as_v1(y_pred, expected):
    """predict-volcanic-eruptions: v1 returns ``int(round(mae))``; Python rounds halves to even."""
    assert mae([0.0, 0.0], y_pred, to_integer=True) == expected
