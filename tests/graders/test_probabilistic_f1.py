"""Golden cases and edge cases for ``probabilistic_f1``."""

import json
import math
from pathlib import Path

import pytest

from graders.metrics.f1 import probabilistic_f1

GOLDEN = json.loads((Path(__file__).parent / "cases" / "probabilistic_f1.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = probabilistic_f1(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)


def test_no_positives_scores_zero_without_an_error():
    assert probabilistic_f1([0, 0], [0.3, 0.1]) == 0.0
