"""Golden cases and edge cases for ``normalized_gini`` (the next-data-version competition's metric)."""

import json
from pathlib import Path

import numpy as np
import pytest

from graders.metrics.gini import normalized_gini

CASES = json.loads((Path(__file__).parent / "cases" / "normalized_gini.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    assert normalized_gini(case["y_true"], case["y_pred"]) == pytest.approx(case["expected"], abs=1e-12)


def _gini_by_sorting(y_true: np.ndarray, y_score: np.ndarray) -> float:
    """Kaggle's normalized Gini, written as its definition (cumulative share of positives by rank)."""

    def gini(actual, pred):
        order = np.lexsort((np.arange(len(pred)), -pred))  # highest score first
        cum = np.cumsum(actual[order]) / actual.sum()
        return cum.sum() / len(actual) - (len(actual) + 1) / (2 * len(actual))

    return gini(y_true, y_score) / gini(y_true, y_true.astype(float))


@pytest.mark.parametrize("seed", range(4))
def test_equals_the_sorting_definition_without_ties(seed):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 2, 400)
    y_score = rng.permutation(400) / 400.0  # distinct scores: the sorting definition has no tie rule
    assert normalized_gini(y_true, y_score) == pytest.approx(_gini_by_sorting(y_true, y_score), abs=1e-9)


def test_any_constant_scores_zero():
    assert normalized_gini([1, 0, 0, 1, 0, 1], [0.37] * 6) == 0.0


def test_one_class_is_undefined():
    with pytest.raises(ValueError, match="only one class"):
        normalized_gini([1, 1], [0.2, 0.9])
