"""ROC AUC with the area split into true-positive-rate bands that are weighted differently (alaska2)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._arrays import paired, score_steps

TPR_BANDS = ((0.0, 0.4, 2.0), (0.4, 1.0, 1.0))
"""(lowest TPR, highest TPR, weight) of each band: the area below TPR 0.4 counts twice."""


def roc_auc_weighted_tpr(y_true: ArrayLike, y_score: ArrayLike) -> float:
    """Weighted AUC of alaska2-image-steganalysis, computed as MLE-bench v1 computes it.

    1. Build the ROC curve (one point per distinct score, from (0, 0) to (1, 1)).
    2. If TPR 0.4 is not a point of the curve, insert it before the first point with a higher TPR,
       interpolating FPR linearly between its neighbours (0 and 1 are always points).
    3. For each band ``[lo, hi]``, take the points with ``lo <= TPR <= hi``, append ``(1, hi)``, shift the
       TPRs down by ``lo`` and take the trapezoidal area.
    4. Score = sum of weight * area / sum of weight * band height (2 * 0.4 + 1 * 0.6 = 1.4).

    Points the ROC curve of scikit-learn would drop as collinear change neither step, so the full curve
    is used. A constant score gives the diagonal and scores 0.82 / 1.4 = 0.58571 (the alaska2 sample
    submission's value).

    Parameters
    ----------
    y_true
        1-D array of 0/1 labels with both classes present.
    y_score
        1-D array of scores (any real numbers), aligned by row.

    Returns
    -------
    float
        Weighted AUC in [0, 1]; higher is better.

    Examples
    --------
    >>> round(roc_auc_weighted_tpr([0, 1, 0, 1], [0, 0, 0, 0]), 5)
    0.58571
    >>> roc_auc_weighted_tpr([0, 0, 1, 1], [0.1, 0.2, 0.8, 0.9])
    1.0

    """
    true, score = paired(y_true, y_score, dtype=np.float64, ndim=1)
    positive = true == 1
    if not (positive | (true == 0)).all():
        raise ValueError("roc_auc_weighted_tpr needs 0/1 labels")
    if positive.all() or not positive.any():
        raise ValueError("roc_auc_weighted_tpr is undefined when y_true holds only one class")
    fpr, tpr = _roc_curve(positive, score)
    for threshold in (0.0, 0.4, 1.0):
        fpr, tpr = _insert(fpr, tpr, threshold)
    total = 0.0
    for low, high, weight in TPR_BANDS:
        inside = (low <= tpr) & (tpr <= high)
        xs = np.append(fpr[inside], 1.0)
        ys = np.append(tpr[inside], high) - low
        total += weight * float(np.trapezoid(ys, xs))
    return total / sum(weight * (high - low) for low, high, weight in TPR_BANDS)


def _roc_curve(positive: np.ndarray, score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(FPR, TPR) at every distinct score, highest first, starting from (0, 0)."""
    tps, fps = score_steps(positive, score)
    return np.r_[0.0, fps / fps[-1]], np.r_[0.0, tps / tps[-1]]


def _insert(fpr: np.ndarray, tpr: np.ndarray, threshold: float) -> tuple[np.ndarray, np.ndarray]:
    """Add the point at TPR ``threshold`` unless present, interpolating its FPR (MLE-bench's rule)."""
    if (tpr == threshold).any():
        return fpr, tpr
    above = np.flatnonzero(tpr > threshold)
    if not above.size:
        return fpr, tpr
    i = above[0]
    new = fpr[i - 1] + (fpr[i] - fpr[i - 1]) * (threshold - tpr[i - 1]) / (tpr[i] - tpr[i - 1])
    return np.insert(fpr, i, new), np.insert(tpr, i, threshold)
