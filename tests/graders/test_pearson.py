"""Golden cases and edge cases for ``pearson``."""

import json
import math
from pathlib import Path

import pytest

from graders.metrics.correlation import pearson

GOLDEN = json.loads((Path(__file__).parent / "cases" / "pearson.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = pearson(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)


def test_agrees_with_scipy():
    import numpy as np
    from scipy.stats import pearsonr

    rng = np.random.default_rng(0)
    y_true, y_pred = rng.random(100), rng.random(100)
    assert pearson(y_true, y_pred) == pytest.approx(pearsonr(y_true, y_pred)[0], abs=1e-12)
