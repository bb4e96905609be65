"""Kullback-Leibler divergence of predicted class distributions from answer distributions."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._arrays import paired

EPS = 1e-15
"""Predictions are clipped to ``[EPS, 1 - EPS]``, as Kaggle's KL metric does."""


def kl_divergence(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Mean over rows of ``KL(p || q) = sum_k p_k log(p_k / q_k)``.

    As MLE-bench's hms-harmful-brain-activity-classification grader (Kaggle's metric, micro average):
    the answers are vote counts, normalised per row to a distribution ``p``; the predictions ``q`` are
    clipped to ``[1e-15, 1 - 1e-15]`` (not renormalised); cells with ``p_k = 0`` contribute 0.

    Parameters
    ----------
    y_true
        ``(n_rows, n_classes)`` array of non-negative votes (or probabilities), each row with a positive sum.
    y_pred
        ``(n_rows, n_classes)`` array of predicted probabilities, columns in the same order.

    Returns
    -------
    float
        Mean KL divergence >= 0 (natural log); lower is better.

    Examples
    --------
    >>> round(kl_divergence([[3, 0, 1], [0, 2, 0]], [[0.75, 0, 0.25], [0, 1, 0]]), 12)  # exact
    0.0
    >>> round(kl_divergence([[1, 0], [1, 1]], [[0.5, 0.5], [0.5, 0.5]]), 6)  # (log 2 + 0) / 2
    0.346574

    """
    true, pred = paired(y_true, y_pred, dtype=np.float64, ndim=2)
    p = true / true.sum(axis=1, keepdims=True)
    cells = np.clip(pred, EPS, 1 - EPS)  # q, then each step in place: two arrays, not six (hms: 2 MB)
    np.divide(p, cells, out=cells)
    with np.errstate(divide="ignore", invalid="ignore"):
        np.log(cells, out=cells)
        cells *= p
    cells[p == 0] = 0.0
    return float(cells.sum(axis=1).mean())
