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


@pytest.mark.parametrize("seed", range(20))
def test_float_labels_are_the_classes_of_their_strings(seed):
    """Floats are coded by bits, not strings: the same classes (-0.0 apart from 0.0), the same score."""
    import numpy as np

    from graders.metrics._labels import encode

    rng = np.random.default_rng(seed)
    pool = np.array([0.0, -0.0, 1.0, 2.0, 3.0, 1e-300, np.inf, 7.0])
    n = int(rng.integers(1, 300))
    y_true = rng.choice(pool[: rng.integers(2, len(pool) + 1)], n)
    y_pred = rng.choice(pool[: rng.integers(1, len(pool) + 1)], n)
    codes, k = encode(y_true.astype(object), y_pred.astype(object))
    t, p = codes[:n], codes[n:]
    t_sum, p_sum = np.bincount(t, minlength=k).astype(float), np.bincount(p, minlength=k).astype(float)
    cov_tp = float(np.count_nonzero(t == p)) * n - t_sum @ p_sum
    cov = (n**2 - p_sum @ p_sum) * (n**2 - t_sum @ t_sum)
    assert mcc(y_true, y_pred) == (0.0 if cov == 0 else float(cov_tp / np.sqrt(cov)))
