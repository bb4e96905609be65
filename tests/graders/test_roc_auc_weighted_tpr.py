"""Golden cases and edge cases for ``roc_auc_weighted_tpr``."""

import json
import math
from pathlib import Path

import pytest

from graders.metrics.weighted_auc import roc_auc_weighted_tpr

GOLDEN = json.loads((Path(__file__).parent / "cases" / "roc_auc_weighted_tpr.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = roc_auc_weighted_tpr(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_is_the_plain_auc_reweighted_for_a_perfect_or_constant_ranking(seed):
    import numpy as np

    rng = np.random.default_rng(seed)
    y_true = rng.permutation([0, 1] * 20)
    assert roc_auc_weighted_tpr(y_true, y_true * 2.0 - 1) == 1.0
    assert roc_auc_weighted_tpr(y_true, np.zeros(40)) == pytest.approx(0.82 / 1.4, abs=1e-12)


def test_one_class_is_undefined():
    with pytest.raises(ValueError, match="only one class"):
        roc_auc_weighted_tpr([1, 1], [0.1, 0.2])
