"""Golden cases and edge cases for ``f1_macro``."""

import json
import math
from pathlib import Path

import pytest

from graders.metrics.f1 import f1_macro

GOLDEN = json.loads((Path(__file__).parent / "cases" / "f1_macro.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = f1_macro(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_agrees_with_scikit_learn(seed):
    import numpy as np
    from sklearn.metrics import f1_score

    rng = np.random.default_rng(seed)
    y_true, y_pred = rng.integers(0, 6, 300).astype(str), rng.integers(0, 8, 300).astype(str)
    assert f1_macro(y_true, y_pred) == pytest.approx(f1_score(y_true, y_pred, average="macro"), abs=1e-12)


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("dtypes", [("int64", "int64"), ("uint8", "uint8"), ("int32", "int64")])
def test_integer_labels_score_as_their_strings(seed, dtypes):
    """Ints (herbarium's classes after validation) are coded as ints, equal exactly when their text is."""
    import numpy as np
    from sklearn.metrics import f1_score

    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 7, 400).astype(dtypes[0])
    y_pred = rng.integers(0, 9, 400).astype(dtypes[1])
    expected = f1_score(y_true.astype(str), y_pred.astype(str), average="macro")
    assert f1_macro(y_true, y_pred) == pytest.approx(expected, abs=1e-12)
    assert f1_macro(y_true, y_pred) == f1_macro(y_true.astype(str), y_pred.astype(str))
