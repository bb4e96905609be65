"""F1 scores: macro and micro over single labels, micro over label sets, and probabilistic F1."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from .._cells import as_text
from ._arrays import paired
from ._labels import check_variant, encode


def f1_macro(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Unweighted mean over labels of the per-label F1 ``2 TP / (2 TP + FP + FN)``.

    The labels are the union of those in ``y_true`` and ``y_pred``, as scikit-learn's
    ``f1_score(average="macro")`` takes them when no label list is given (MLE-bench's herbarium and
    iwildcam-2019 graders). Every such label has a non-zero denominator, so no zero-division rule is
    needed. Labels are compared by their string form; MLE-bench casts both sides to int first, which
    validation reproduces for this metric (kind ``integer_labels``: ``"07"``, ``"7.0"`` and ``"7"`` are
    all class 7).

    Parameters
    ----------
    y_true, y_pred
        1-D arrays of labels, aligned by row.

    Returns
    -------
    float
        Macro F1 in [0, 1]; higher is better.

    Examples
    --------
    >>> f1_macro(["a", "a", "b", "c"], ["a", "b", "b", "c"])  # a: 2/3, b: 2/3, c: 1
    0.7777777777777777
    >>> f1_macro(["a", "b"], ["c", "c"])  # three labels, none right
    0.0

    """
    true, pred = paired(y_true, y_pred, dtype=object, ndim=1)
    codes, n_labels = encode(true, pred)
    t, p = codes[: len(true)], codes[len(true) :]
    hits = np.bincount(t[t == p], minlength=n_labels)
    totals = np.bincount(t, minlength=n_labels) + np.bincount(p, minlength=n_labels)
    return float(np.mean(2 * hits / totals))


def f1_micro(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Micro-averaged F1 over single labels, which equals accuracy.

    With one label per row, every wrong row is one false positive (for the predicted label) and one
    false negative (for the true label), so ``2 TP / (2 TP + FP + FN) = correct / rows``. This is
    scikit-learn's ``f1_score(average="micro")`` on single labels, as MLE-bench's plant-seedlings and
    tensorflow2-question-answering graders call it.

    Parameters
    ----------
    y_true, y_pred
        1-D arrays of labels, aligned by row; compared as exact strings.

    Returns
    -------
    float
        Micro F1 in [0, 1]; higher is better.

    Examples
    --------
    >>> f1_micro(["a", "b", "b", "c"], ["a", "b", "c", "c"])
    0.75

    """
    true, pred = paired(y_true, y_pred, dtype=object, ndim=1)
    return float((as_text(true) == as_text(pred)).mean())


def f1_micro_multilabel(y_true: ArrayLike, y_pred: ArrayLike, *, variant: str = "v1") -> float:
    """Micro-averaged F1 over sets of whitespace-separated labels.

    Each row is a set of labels (repeats count once, a blank cell is the empty set). Counting over all
    rows, F1 = ``2 TP / (2 TP + FP + FN)``, and 0 when nothing is predicted or expected.

    MLE-bench v1 (facebook-recruiting-iii, imet-2020, plant-pathology-2021) binarises both sides with a
    ``MultiLabelBinarizer`` fitted on the labels found in the **answers**, so a predicted label that
    never occurs in the answers is silently dropped and never counts as a false positive (spec §9.2.10).
    ``variant="v1"`` (the default) reproduces this; ``variant="fixed"`` counts such labels as false
    positives.

    Parameters
    ----------
    y_true, y_pred
        1-D arrays of strings, aligned by row.
    variant
        ``"v1"`` or ``"fixed"``, see above.

    Returns
    -------
    float
        Micro F1 in [0, 1]; higher is better.

    Examples
    --------
    >>> y_true = ["a b", "c", "a"]
    >>> y_pred = ["a", "c zzz", "b"]
    >>> f1_micro_multilabel(y_true, y_pred)  # TP 2 (a, c), FP 1 (b), FN 2 (b, a); zzz ignored
    0.5714285714285714
    >>> f1_micro_multilabel(y_true, y_pred, variant="fixed")  # zzz is one more false positive
    0.5

    """
    check_variant(variant)
    true, pred = paired(y_true, y_pred, dtype=object, ndim=1)
    true_sets = [set(str(t).split()) for t in true]
    vocabulary = set().union(*true_sets)
    tp = fp = fn = 0
    for expected, text in zip(true_sets, pred, strict=True):
        found = set(str(text).split())
        if variant == "v1":
            found &= vocabulary
        hits = len(found & expected)
        tp, fp, fn = tp + hits, fp + len(found) - hits, fn + len(expected) - hits
    denominator = 2 * tp + fp + fn
    return 2 * tp / denominator if denominator else 0.0


def probabilistic_f1(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Probabilistic F1 (Kaggle's ``pfbeta`` with beta 1): F1 from predicted probabilities as soft counts.

    Predictions are clipped to [0, 1]. The soft true-positive count is the sum of the predictions on
    positive rows and the soft false-positive count the sum on negative rows; precision is
    ``ctp / (ctp + cfp)``, recall ``ctp / n_positive`` and the score ``2 P R / (P + R)``, or 0 unless both
    are positive (so an all-zero submission, whose precision is 0/0, scores 0), as MLE-bench's
    rsna-breast-cancer-detection grader computes it.

    Parameters
    ----------
    y_true
        1-D array of 0/1 labels.
    y_pred
        1-D array of predicted probabilities (any real numbers; they are clipped).

    Returns
    -------
    float
        pF1 in [0, 1]; higher is better.

    Examples
    --------
    >>> probabilistic_f1([1, 0, 1, 0], [0.8, 0.2, 1.5, -3])  # ctp 1.8, cfp 0.2: P 0.9, R 0.9
    0.9
    >>> probabilistic_f1([1, 0], [0, 0])
    0.0

    """
    true, pred = paired(y_true, y_pred, dtype=np.float64, ndim=1)
    pred = np.clip(pred, 0.0, 1.0)
    positive = true == 1
    ctp, cfp = pred[positive].sum(), pred[~positive].sum()
    with np.errstate(divide="ignore", invalid="ignore"):
        precision = ctp / (ctp + cfp)
        recall = ctp / np.float64(positive.sum())
        if precision > 0 and recall > 0:
            return float(2 * precision * recall / (precision + recall))
    return 0.0

