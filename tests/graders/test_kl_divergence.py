"""Golden cases and edge cases for ``kl_divergence``."""

import json
import math
from pathlib import Path

import pytest

from graders.metrics.kl_divergence import kl_divergence

GOLDEN = json.loads((Path(__file__).parent / "cases" / "kl_divergence.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = kl_divergence(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)
