"""Golden cases and edge cases for ``binary_log_loss``."""

import json
import math
from pathlib import Path

import pytest

from graders.metrics.log_loss import binary_log_loss

GOLDEN = json.loads((Path(__file__).parent / "cases" / "binary_log_loss.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = binary_log_loss(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_agrees_with_scikit_learn(seed):
    import numpy as np
    from sklearn.metrics import log_loss

    rng = np.random.default_rng(seed)
    y_true, y_pred = rng.integers(0, 2, 200), rng.random(200)
    y_pred[:5], y_pred[5:10] = 0.0, 1.0
    assert binary_log_loss(y_true, y_pred) == pytest.approx(log_loss(y_true, y_pred), abs=1e-12)


def test_one_class_is_undefined():
    with pytest.raises(ValueError, match="only one class"):
        binary_log_loss([1, 1], [0.5, 0.9])
