"""Golden cases and edge cases for ``jaccard_words``."""

import json
import math
from pathlib import Path

import pytest

from graders.metrics.jaccard import jaccard_words, jaccard_words_fixed
from graders.registry import get_metric

GOLDEN = json.loads((Path(__file__).parent / "cases" / "jaccard_words.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = get_metric(case.get("metric", "jaccard_words")).fn(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)


def test_grading_jaccard_both_blank_scores_zero_in_v1():
    """Spec §9.2.15: a row where answer and prediction are both blank scores 0 in v1.

    chaii's v1 grader (scikit-learn ``jaccard_score``) scores it 0; Kaggle scored it 1
    (:func:`jaccard_words_fixed`).
    """
    assert jaccard_words([""], [""]) == 0.0
    assert jaccard_words_fixed([""], [""]) == 1.0
