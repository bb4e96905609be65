"""Golden cases and edge cases for ``f1_micro``."""

import json
import math
from pathlib import Path

import pytest

from graders.metrics.f1 import f1_micro

GOLDEN = json.loads((Path(__file__).parent / "cases" / "f1_micro.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = f1_micro(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)


def test_agrees_with_scikit_learn():
    import numpy as np
    from sklearn.metrics import f1_score

    rng = np.random.default_rng(0)
    y_true, y_pred = rng.integers(0, 4, 200).astype(str), rng.integers(0, 4, 200).astype(str)
    assert f1_micro(y_true, y_pred) == pytest.approx(f1_score(y_true, y_pred, average="micro"), abs=1e-12)
