"""Golden cases and edge cases for ``mcc``."""

import json
import math
from pathlib import Path

import pytest

from graders.metrics.agreement import mcc

GOLDEN = json.loads((Path(__file__).parent / "cases" / "mcc.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = mcc(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_agrees_with_scikit_learn(seed):
    import numpy as np
    from sklearn.metrics import matthews_corrcoef

    rng = np.random.default_rng(seed)
    y_true, y_pred = rng.integers(0, 2, 300).astype(str), rng.integers(0, 2, 300).astype(str)
    assert mcc(y_true, y_pred) == pytest.approx(matthews_corrcoef(y_true, y_pred), abs=1e-12)
