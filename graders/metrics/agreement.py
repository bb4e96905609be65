"""Agreement between two labelings beyond chance: Matthews correlation and quadratic weighted kappa."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._arrays import paired
from ._labels import encode, float_classes


def mcc(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Matthews correlation coefficient, multiclass form (binary labels are the usual case).

    With the confusion matrix ``C``, row sums ``t``, column sums ``p``, ``c`` correct rows and ``n``
    rows, MCC = ``(c n - t.p) / sqrt((n^2 - p.p) (n^2 - t.t))``, and 0 when either factor under the
    root is 0 (a constant prediction or constant answers), exactly as scikit-learn's
    ``matthews_corrcoef`` (MLE-bench's nfl-player-contact-detection grader).

    Parameters
    ----------
    y_true, y_pred
        1-D arrays of labels, aligned by row, compared by their string form. Validation hands over
        floats (kind ``regression``), so ``1`` and ``1.0`` are one class, as in v1's pandas frames.

    Returns
    -------
    float
        MCC in [-1, 1]; higher is better.

    Examples
    --------
    >>> round(mcc(["1", "1", "0", "0"], ["1", "0", "0", "0"]), 6)
    0.57735
    >>> mcc(["1", "0", "0"], ["0", "0", "0"])
    0.0

    """
    true, pred = paired(y_true, y_pred, dtype=None, ndim=1)
    # the sums below are of whole numbers, exact in any order, so classes may be coded in any order
    numeric = true.dtype.kind == pred.dtype.kind == "f"
    codes, k = float_classes(true, pred) if numeric else encode(true, pred)
    t, p = codes[: len(true)], codes[len(true) :]
    t_sum = np.bincount(t, minlength=k).astype(np.float64)
    p_sum = np.bincount(p, minlength=k).astype(np.float64)
    n, correct = float(len(t)), float(np.count_nonzero(t == p))
    cov_tp = correct * n - t_sum @ p_sum
    cov_pp, cov_tt = n**2 - p_sum @ p_sum, n**2 - t_sum @ t_sum
    if cov_pp * cov_tt == 0:
        return 0.0
    return float(cov_tp / np.sqrt(cov_pp * cov_tt))


def quadratic_weighted_kappa(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Cohen's kappa with quadratic weights, as scikit-learn's ``cohen_kappa_score(weights="quadratic")``.

    The classes are the sorted distinct values found in either array, and the weight between classes
    ``i`` and ``j`` is ``(i - j)^2`` on their **positions** in that list, not on their values (so if
    only 1, 2 and 5 occur, 2 and 5 are one step apart). Kappa = ``1 - sum(W C) / sum(W E)`` with ``C``
    the confusion matrix and ``E`` its outer-product expectation; NaN when ``sum(W E)`` is 0 (a single
    class overall). MLE-bench's aptos2019 and learning-agency-lab-aes-2 graders use it.

    Parameters
    ----------
    y_true, y_pred
        1-D numeric arrays of ordinal labels, aligned by row.

    Returns
    -------
    float
        Kappa in [-1, 1]; higher is better, 0 is chance.

    Examples
    --------
    >>> quadratic_weighted_kappa([0, 1, 2, 3], [0, 1, 2, 3])
    1.0
    >>> quadratic_weighted_kappa([0, 1, 2, 3], [0, 0, 0, 0])
    0.0
    >>> round(quadratic_weighted_kappa([0, 1, 2], [0, 2, 1]), 6)
    0.5

    """
    true, pred = paired(y_true, y_pred, dtype=np.float64, ndim=1)
    classes, codes = np.unique(np.concatenate([pred, true]), return_inverse=True)
    k = len(classes)
    p, t = codes[: len(pred)], codes[len(pred) :]
    confusion = np.bincount(p * k + t, minlength=k * k).reshape(k, k).astype(np.float64)
    expected = np.outer(confusion.sum(axis=0), confusion.sum(axis=1)) / confusion.sum()
    positions = np.arange(k, dtype=np.float64)
    weights = (positions[:, None] - positions[None, :]) ** 2
    denominator = float((weights * expected).sum())
    if denominator == 0:
        return float("nan")
    return float(1 - (weights * confusion).sum() / denominator)
