"""Correlation scores: Pearson's r on one column, and Spearman's rho averaged over columns."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._arrays import average_ranks, paired


def pearson(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Pearson correlation coefficient between predictions and answers (``scipy.stats.pearsonr``).

    A constant prediction (or constant answers) has no correlation: the score is **NaN**, not an
    error. MLE-bench's us-patent-phrase-to-phrase-matching sample submission (all zeros) scores NaN.

    Parameters
    ----------
    y_true, y_pred
        1-D numeric arrays, aligned by row, at least 2 rows.

    Returns
    -------
    float
        r in [-1, 1], or NaN; higher is better.

    Examples
    --------
    >>> pearson([1.0, 2.0, 3.0, 4.0], [2.0, 4.0, 6.0, 8.0])
    1.0
    >>> pearson([1.0, 2.0, 3.0], [0.0, 0.0, 0.0])
    nan

    """
    true, pred = paired(y_true, y_pred, dtype=np.float64, ndim=1)
    return _pearson(true, pred)


def _pearson(x: np.ndarray, y: np.ndarray) -> float:
    """``scipy.stats.pearsonr(x, y).statistic`` for two 1-D float64 columns, bit for bit, without scipy.

    Importing scipy.stats cost more than the rest of us-patent's grading (docs/performance.md). scipy's
    steps in its order: a constant side is NaN; deviations from the mean are scaled by their largest
    magnitude before ``np.linalg.norm`` (no overflow); ``np.vecdot`` of the normalized deviations, clipped to
    [-1, 1]; two rows give exactly -1 or 1.
    """
    if len(x) < 2 or len(y) != len(x):
        raise ValueError(f"pearson needs two columns of the same length, at least 2, got {len(x)}, {len(y)}")
    if (x == x[0]).all() or (y == y[0]).all():
        return float("nan")
    with np.errstate(invalid="ignore", divide="ignore"):
        xm, ym = x - np.mean(x, axis=-1, keepdims=True), y - np.mean(y, axis=-1, keepdims=True)
        xmax = np.max(np.abs(xm), axis=-1, keepdims=True)
        ymax = np.max(np.abs(ym), axis=-1, keepdims=True)
        normxm = xmax * np.linalg.norm(xm / xmax, ord=2, axis=-1, keepdims=True)
        normym = ymax * np.linalg.norm(ym / ymax, ord=2, axis=-1, keepdims=True)
        r = np.clip(np.vecdot(xm / normxm, ym / normym, axis=-1), -1.0, 1.0)
    return float(np.round(r) if len(x) == 2 else r)


def spearman_mean_columns(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Mean over columns of Spearman's rank correlation (``scipy.stats.spearmanr``, average ranks for ties).

    As in MLE-bench's google-quest-challenge grader, a column where either side is constant has a NaN
    correlation and the NaN propagates to the mean (``np.mean``, not ``np.nanmean``).

    Parameters
    ----------
    y_true, y_pred
        ``(n_rows, n_columns)`` numeric arrays, columns in the same order.

    Returns
    -------
    float
        Mean rho in [-1, 1], or NaN; higher is better.

    Examples
    --------
    >>> y_true = [[1, 0], [2, 1], [3, 0]]
    >>> round(spearman_mean_columns(y_true, [[10, 0.2], [20, 0.9], [30, 0.1]]), 6)  # 1 and 0.866
    0.933013
    >>> spearman_mean_columns(y_true, [[10, 0.5], [20, 0.5], [30, 0.5]])
    nan

    """
    true, pred = paired(y_true, y_pred, dtype=np.float64, ndim=2)
    return float(np.mean([_spearman(pred[:, c], true[:, c]) for c in range(true.shape[1])]))


def _spearman(a: np.ndarray, b: np.ndarray) -> float:
    """``scipy.stats.spearmanr(a, b).statistic`` for two 1-D columns, bit for bit, without importing scipy.

    scipy's steps in its order: one row, or a constant side, is NaN (before NaNs are looked at); any NaN
    is NaN (``nan_policy="propagate"``); else ``np.corrcoef`` of the two columns' average ranks, stacked as
    scipy stacks them. The ranks are exact halves, so the result equals scipy's.
    """
    if len(a) <= 1 or (a[0] == a).all() or (b[0] == b).all():
        return float("nan")
    if np.isnan(a.max()) or np.isnan(b.max()):
        return float("nan")
    ranked = np.column_stack((average_ranks(a), average_ranks(b)))
    return float(np.corrcoef(ranked, rowvar=False)[1, 0])
