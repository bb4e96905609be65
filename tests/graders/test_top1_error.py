"""Golden cases and edge cases for ``top1_error``."""

import json
import math
from pathlib import Path

import pytest

from graders.metrics.accuracy import top1_error

GOLDEN = json.loads((Path(__file__).parent / "cases" / "top1_error.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = top1_error(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)


def test_blank_or_non_integer_predictions_are_errors():
    """v1 calls ``int`` on the first token, so these crash there (no score); validation rejects them."""
    with pytest.raises(ValueError, match="blank"):
        top1_error(["1"], [""])
    with pytest.raises(ValueError):
        top1_error(["1"], ["1.0"])
