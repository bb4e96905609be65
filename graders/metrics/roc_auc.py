"""Area under the ROC curve for a binary target, computed from ranks."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._arrays import average_ranks, paired


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
    ranks = average_ranks(score)  # tied scores count one half
    return float((ranks[positive].sum() - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg))


def roc_auc_mean_columns(y_true: ArrayLike, y_score: ArrayLike) -> float:
    """Mean over columns of the binary ROC AUC (scikit-learn's ``average="macro"``).

    Rows whose answers sum to less than 0 are left out first: jigsaw-toxic-comment's answers mark
    unscored rows with -1 in every column, and MLE-bench drops them the same way. Each column must
    then hold both classes.

    Parameters
    ----------
    y_true
        ``(n_rows, n_columns)`` array of 0/1 labels (or -1 rows to ignore).
    y_score
        ``(n_rows, n_columns)`` array of scores, columns in the same order.

    Returns
    -------
    float
        Mean AUC in [0, 1]; higher is better.

    Examples
    --------
    >>> y_true = [[0, 1], [1, 0], [1, 1], [-1, -1]]
    >>> roc_auc_mean_columns(y_true, [[0.1, 0.9], [0.8, 0.2], [0.3, 0.4], [0.9, 0.0]])  # 1 and 1
    1.0
    >>> roc_auc_mean_columns(y_true, [[0.5, 0.5], [0.5, 0.5], [0.5, 0.5], [0.5, 0.5]])
    0.5

    """
    true, score = paired(y_true, y_score, dtype=np.float64, ndim=2)
    scored = labelled_rows(true)
    true, score = true[scored], score[scored]
    return float(np.mean([roc_auc(true[:, c], score[:, c]) for c in range(true.shape[1])]))


def labelled_rows(y_true: ArrayLike, **_: object) -> np.ndarray:
    """Mark the answer rows :func:`roc_auc_mean_columns` scores: those whose labels do not sum below 0.

    A boolean mask over the rows of the ``(n_rows, n_columns)`` labels; keyword arguments are ignored.

    Examples
    --------
    >>> labelled_rows([[0, 1], [-1, -1], [1, 1]]).tolist()
    [True, False, True]

    """
    return np.asarray(y_true, dtype=np.float64).sum(axis=1) >= 0


def roc_auc_flattened(y_true: ArrayLike, y_score: ArrayLike) -> float:
    """One ROC AUC over every (row, column) cell pooled together (mlsp-2013-birds).

    MLE-bench's mlsp-2013-birds answers hold one row per (recording, species) pair, so the pooled AUC
    is a plain AUC over that column; a 2-D input is flattened first.

    Parameters
    ----------
    y_true
        Array of 0/1 labels, 1-D or ``(n_rows, n_columns)``.
    y_score
        Scores of the same shape.

    Returns
    -------
    float
        AUC in [0, 1]; higher is better.

    Examples
    --------
    >>> roc_auc_flattened([[0, 1], [1, 0]], [[0.1, 0.9], [0.2, 0.3]])  # 3 of 4 (positive, negative) pairs
    0.75

    """
    true, score = np.asarray(y_true, dtype=np.float64), np.asarray(y_score, dtype=np.float64)
    if true.shape != score.shape:
        raise ValueError(f"y_true and y_score must have the same shape, got {true.shape} and {score.shape}")
    return roc_auc(true.ravel(), score.ravel())
