"""Golden cases and edge cases for ``f1_micro_multilabel``."""

import json
import math
from pathlib import Path

import pytest

from graders.metrics.f1 import f1_micro_multilabel, f1_micro_multilabel_fixed
from graders.registry import get_metric

GOLDEN = json.loads((Path(__file__).parent / "cases" / "f1_micro_multilabel.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = get_metric(case.get("metric", "f1_micro_multilabel")).fn(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)


def test_grading_multilabel_f1_ignores_labels_outside_the_answers():
    """Spec §9.2.10: predicted labels outside the answers' vocabulary are ignored in v1.

    v1 (facebook-iii, imet-2020, plant-pathology-2021) binarises with the answers' vocabulary, so a
    predicted label never seen in the answers is dropped instead of counted as a false positive.
    """
    assert f1_micro_multilabel(["a", "b"], ["a junk1 junk2", "b junk3"]) == 1.0
    assert f1_micro_multilabel_fixed(["a", "b"], ["a junk1 junk2", "b junk3"]) == 4 / 7


@pytest.mark.parametrize("seed", range(5))
def test_agrees_with_scikit_learn_on_the_answer_vocabulary(seed):
    import warnings

    import numpy as np
    from sklearn.metrics import f1_score
    from sklearn.preprocessing import MultiLabelBinarizer

    rng = np.random.default_rng(seed)
    y_true = [" ".join(rng.choice(list("abcde"), rng.integers(0, 3), replace=False)) for _ in range(60)]
    y_pred = [" ".join(rng.choice(list("abcdefg"), rng.integers(0, 4), replace=False)) for _ in range(60)]
    binarizer = MultiLabelBinarizer(classes=sorted(set(" ".join(y_true).split())))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # unknown labels f and g, which v1 ignores the same way
        expected = f1_score(
            binarizer.fit_transform([t.split() for t in y_true]),
            binarizer.transform([p.split() for p in y_pred]),
            average="micro",
        )
    assert f1_micro_multilabel(y_true, y_pred) == pytest.approx(expected, abs=1e-12)


@pytest.mark.parametrize("v1", [True, False], ids=["v1", "fixed"])
def test_the_arrow_counts_equal_the_per_row_set_counts(v1):
    """The vectorised (row, label) counting must give str.split's sets' counts, whitespace runs included."""
    import numpy as np

    from graders.metrics.f1 import _set_counts, _set_counts_arrow

    rng = np.random.default_rng(0)
    words = ["a", "b", "c", "dd", "e-f", "", " ", "  a  ", "\t", "b\tc", "a\r\nb"]
    for _ in range(200):
        n = int(rng.integers(1, 20))

        def cells(vocabulary, n=n):
            return np.array([" ".join(rng.choice(vocabulary, rng.integers(0, 5))) for _ in range(n)], object)

        true, pred = cells(words), cells([*words, "zz"])
        assert _set_counts_arrow(true, pred, v1) == _set_counts(true, pred, v1)
    # a separator Arrow's ASCII split does not know is left to the per-row count
    odd = np.array(["a\x1cb"], dtype=object)
    assert _set_counts_arrow(odd, odd, v1) is None
