"""Golden cases and edge cases for ``roc_auc``."""

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import roc_auc_score

from graders.metrics.roc_auc import roc_auc

CASES = json.loads((Path(__file__).parent / "cases" / "roc_auc.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    assert roc_auc(case["y_true"], case["y_pred"]) == pytest.approx(case["expected"], abs=1e-12)


@pytest.mark.parametrize("seed", range(5))
def test_agrees_with_scikit_learn_including_ties(seed):
    rng = np.random.default_rng(seed)
    y_true = rng.integers(0, 2, 300)
    y_score = rng.integers(0, 20, 300) / 20  # coarse scores, so many ties
    assert roc_auc(y_true, y_score) == pytest.approx(roc_auc_score(y_true, y_score), abs=1e-12)


def test_depends_only_on_the_order_of_scores():
    y_true = [0, 1, 0, 1, 1]
    scores = np.array([0.1, 0.7, 0.3, 0.2, 0.9])
    assert roc_auc(y_true, scores) == roc_auc(y_true, scores**3 * 100)


def test_one_class_is_undefined():
    with pytest.raises(ValueError, match="only one class"):
        roc_auc([1, 1, 1], [0.2, 0.5, 0.9])


def test_labels_must_be_zero_or_one():
    with pytest.raises(ValueError, match="0/1 labels"):
        roc_auc([0, 1, 2], [0.2, 0.5, 0.9])
