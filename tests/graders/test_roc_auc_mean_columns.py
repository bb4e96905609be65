"""Golden cases and edge cases for ``roc_auc_mean_columns``."""

import json
import math
from pathlib import Path

import pytest

from graders.metrics.roc_auc import roc_auc_mean_columns

GOLDEN = json.loads((Path(__file__).parent / "cases" / "roc_auc_mean_columns.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = roc_auc_mean_columns(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)
