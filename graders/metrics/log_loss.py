"""Multi-class log loss (cross-entropy) of predicted class probabilities against one-hot answers."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._arrays import paired

EPS = float(np.finfo(np.float64).eps)
"""Predictions are clipped to ``[EPS, 1 - EPS]`` (float64 machine epsilon, about 2.2e-16)."""


def log_loss(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Mean over rows of ``-sum_k y_true[k] * log(y_pred[k])``.

    This is what MLE-bench computes with scikit-learn >= 1.5 (``sklearn.metrics.log_loss`` on one-hot
    answers): each prediction is clipped to ``[EPS, 1 - EPS]`` with ``EPS`` the float64 machine epsilon,
    and rows are **not** renormalised. Validation has already required every submitted row to sum to 1
    (within 1e-6), as MLE-bench's log-loss competitions do, so renormalising would change nothing that
    survives rounding. Kaggle's own metric (and scikit-learn < 1.5) clipped at 1e-15 and renormalised;
    the two differ only when a true class gets a probability below 1e-15.

    Parameters
    ----------
    y_true
        ``(n_rows, n_classes)`` array, one-hot (any row distribution works: this is cross-entropy).
    y_pred
        ``(n_rows, n_classes)`` array of predicted probabilities, columns in the same class order.

    Returns
    -------
    float
        Log loss >= 0 (natural log); lower is better.

    Examples
    --------
    >>> y_true = [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    >>> round(log_loss(y_true, [[0.5, 0.25, 0.25], [0.25, 0.5, 0.25], [0.25, 0.25, 0.5]]), 6)
    0.693147
    >>> round(log_loss([[1, 0], [0, 1]], [[1.0, 0.0], [1.0, 0.0]]), 4)  # a certain miss costs -log(EPS) / 2
    18.0218

    """
    from scipy.special import xlogy  # slow to import: only its competitions pay

    true, pred = paired(y_true, y_pred, dtype=np.float64, ndim=2)
    clipped = np.clip(pred, EPS, 1 - EPS)
    return float(-xlogy(true, clipped).sum(axis=1).mean())


def binary_log_loss(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Binary log loss of the predicted probability of the positive class.

    As ``sklearn.metrics.log_loss`` (>= 1.5) on a 1-D prediction, which MLE-bench's dogs-vs-cats and
    statoil graders call: each row becomes the pair ``(1 - p, p)``, both entries are clipped to
    ``[EPS, 1 - EPS]``, and the loss is ``-mean(y log p + (1 - y) log(1 - p))``.

    Parameters
    ----------
    y_true
        1-D array of 0/1 labels; both classes must occur (scikit-learn refuses a single class).
    y_pred
        1-D array of probabilities in [0, 1], aligned by row.

    Returns
    -------
    float
        Log loss >= 0 (natural log); lower is better.

    Raises
    ------
    ValueError
        If a label is not 0 or 1, or only one class occurs.

    Examples
    --------
    >>> round(binary_log_loss([0, 1, 1, 0], [0.5, 0.5, 0.5, 0.5]), 6)  # ln 2
    0.693147
    >>> round(binary_log_loss([1, 0], [0.8, 0.4]), 6)  # -(ln 0.8 + ln 0.6) / 2
    0.366985

    """
    from scipy.special import xlogy  # slow to import: only its competitions pay

    true, pred = paired(y_true, y_pred, dtype=np.float64, ndim=1)
    if not np.isin(true, (0.0, 1.0)).all():
        raise ValueError("binary_log_loss needs 0/1 labels")
    if np.unique(true).size < 2:
        raise ValueError("binary_log_loss is undefined when y_true holds only one class")
    p1, p0 = np.clip(pred, EPS, 1 - EPS), np.clip(1 - pred, EPS, 1 - EPS)
    return float(-np.mean(xlogy(true, p1) + xlogy(1 - true, p0)))
