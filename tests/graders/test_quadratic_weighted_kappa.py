"""Golden cases and edge cases for ``quadratic_weighted_kappa``."""

import json
import math
from pathlib import Path

import pytest

from graders.metrics.agreement import quadratic_weighted_kappa

GOLDEN = json.loads((Path(__file__).parent / "cases" / "quadratic_weighted_kappa.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = quadratic_weighted_kappa(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_agrees_with_scikit_learn(seed):
    import numpy as np
    from sklearn.metrics import cohen_kappa_score

    rng = np.random.default_rng(seed)
    y_true, y_pred = rng.integers(1, 7, 300), rng.integers(2, 6, 300)
    expected = cohen_kappa_score(y_pred, y_true, weights="quadratic")
    assert quadratic_weighted_kappa(y_true, y_pred) == pytest.approx(expected, abs=1e-12)
