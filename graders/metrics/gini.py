"""Normalized Gini coefficient of a binary target's scores: 2·AUC − 1, so a constant scores exactly 0."""

from __future__ import annotations

from numpy.typing import ArrayLike

from .roc_auc import roc_auc


def normalized_gini(y_true: ArrayLike, y_score: ArrayLike) -> float:
    """Score 0/1 labels by the normalized Gini coefficient of the scores: ``2 * roc_auc - 1``.

    The Gini of the scores' ordering divided by the Gini of the perfect ordering (Kaggle's "normalized
    Gini"), which for a 0/1 target is exactly ``2 * AUC - 1``: 1 for a perfect ranking, 0 for a constant
    (or any ranking no better than chance), -1 for the reversed ranking. Only the order of the scores
    counts; tied scores count one half, as in :func:`graders.metrics.roc_auc.roc_auc`.

    Parameters
    ----------
    y_true
        1-D array of 0/1 labels; both classes must be present.
    y_score
        1-D array of scores (usually probabilities of the positive class), aligned by row.

    Returns
    -------
    float
        The coefficient in [-1, 1]; higher is better, 0 is chance.

    Raises
    ------
    ValueError
        If a label is not 0 or 1, or only one class is present.

    Examples
    --------
    >>> normalized_gini([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.5
    >>> normalized_gini([0, 1, 0, 1], [0.5, 0.5, 0.5, 0.5])
    0.0
    >>> normalized_gini([0, 0, 1, 1], [0.9, 0.8, 0.2, 0.1])
    -1.0

    """
    return 2.0 * roc_auc(y_true, y_score) - 1.0
