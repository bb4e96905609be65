"""Area under the ROC curve for a binary target, computed from ranks."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike
from scipy.stats import rankdata

from ._arrays import paired


def roc_auc(y_true: ArrayLike, y_score: ArrayLike) -> float:
    """Area under the ROC curve of scores against 0/1 labels.

    The area equals the probability that a random positive row scores above a random negative row,
    with ties counting one half (the Mann-Whitney statistic). This equals the trapezoidal area under
    the ROC curve that scikit-learn's ``roc_auc_score`` computes.

    Parameters
    ----------
    y_true
        1-D array of 0/1 labels; both classes must be present.
    y_score
        1-D array of scores (usually probabilities of the positive class), aligned by row.

    Returns
    -------
    float
        AUC in [0, 1]; higher is better, 0.5 is chance.

    Raises
    ------
    ValueError
        If a label is not 0 or 1, or only one class is present (the area is undefined).

    Examples
    --------
    >>> roc_auc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> roc_auc([0, 1, 1], [0.5, 0.5, 0.9])
    0.75

    """
    true, score = paired(y_true, y_score, dtype=np.float64, ndim=1)
    positive, negative = true == 1, true == 0
    if not (positive | negative).all():
        raise ValueError(f"roc_auc needs 0/1 labels, got {np.unique(true[~(positive | negative)])[:5]}")
    n_pos, n_neg = int(positive.sum()), int(negative.sum())
    if n_pos == 0 or n_neg == 0:
        raise ValueError("roc_auc is undefined when y_true holds only one class")
    ranks = rankdata(score)  # average ranks, so tied scores count one half
    return float((ranks[positive].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))
