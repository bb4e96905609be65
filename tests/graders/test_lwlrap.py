"""Golden cases and edge cases for ``lwlrap``."""

import json
import math
from pathlib import Path

import pytest

from graders.metrics.ranking import lwlrap

GOLDEN = json.loads((Path(__file__).parent / "cases" / "lwlrap.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = lwlrap(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_agrees_with_weighted_lrap_of_scikit_learn(seed):
    import numpy as np
    from sklearn.metrics import label_ranking_average_precision_score

    rng = np.random.default_rng(seed)
    truth = (rng.random((80, 10)) < 0.2).astype(float)
    scores = rng.integers(0, 5, (80, 10)) / 5  # many ties
    rows = truth.sum(axis=1) > 0
    expected = label_ranking_average_precision_score(
        truth[rows] > 0, scores[rows], sample_weight=truth[rows].sum(axis=1)
    )
    assert lwlrap(truth, scores) == pytest.approx(expected, abs=1e-12)


def test_no_positive_label_is_undefined():
    with pytest.raises(ValueError, match="no row has a positive"):
        lwlrap([[0, 0]], [[0.1, 0.2]])
