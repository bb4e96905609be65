"""Golden cases and edge cases for ``kuzushiji_f1``."""

import json
import math
from pathlib import Path

import pytest

from graders.metrics.kuzushiji_f1 import kuzushiji_f1

GOLDEN = json.loads((Path(__file__).parent / "cases" / "kuzushiji_f1.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = kuzushiji_f1(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)


def test_malformed_prediction_is_an_error():
    with pytest.raises(ValueError, match="multiple of 3"):
        kuzushiji_f1(["U+0041 0 0 10 10"], ["U+0041 5"])
    with pytest.raises(ValueError, match="not a number"):
        kuzushiji_f1(["U+0041 0 0 10 10"], ["U+0041 x 5"])
