"""Golden cases and edge cases for ``normalized_levenshtein``."""

import json
import math
from pathlib import Path

import pytest

from graders.metrics.edit_distance import normalized_levenshtein

GOLDEN = json.loads((Path(__file__).parent / "cases" / "normalized_levenshtein.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = normalized_levenshtein(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)


def test_non_integer_tokens_are_an_error():
    with pytest.raises(ValueError, match="integers"):
        normalized_levenshtein(["1 2"], ["1 x"])
