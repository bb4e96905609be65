"""Ranking metrics: mean average precision at k over ranked lists, and label-weighted LRAP (lwlrap)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._arrays import paired

_CELLS = 20_000_000
"""Booleans the lwlrap pairwise comparison may hold at once (bounds memory)."""


def map_at_k(y_true: ArrayLike, y_pred: ArrayLike, *, k: int) -> float:
    """Mean over rows of average precision at ``k``.

    Each answer is a set of relevant items; each prediction a ranked list, of which the first ``k`` count.
    Both are split on each single space, as all three v1 graders do (``str.split(" ")``): a doubled,
    leading or trailing space makes an empty item that takes a ranked position (and is relevant only to
    an answer that has one), and a tab or newline is part of an item, not a separator. A prediction at
    position ``i`` (1-based) that is relevant and not already listed earlier adds ``hits_so_far / i``;
    the sum is divided by ``min(len(relevant), k)``. This is MLE-bench's ``mean_average_precision_at_k``
    (h-and-m with k=12; hotel-id and whale with k=5).

    Parameters
    ----------
    y_true, y_pred
        1-D arrays of strings, aligned by row; a blank prediction is an empty list.
    k
        How many predictions per row count.

    Returns
    -------
    float
        MAP@k in [0, 1]; higher is better.

    Examples
    --------
    >>> map_at_k(["a", "b", "c"], ["a x y", "x b", "x y z"], k=2)  # 1, 1/2, 0
    0.5
    >>> map_at_k(["a b"], ["a a b"], k=3)  # the repeated a is no hit: (1 + 2/3) / 2
    0.8333333333333333
    >>> map_at_k(["a"], [" a"], k=2)  # the leading space is an empty first item: 1/2
    0.5

    """
    true, pred = paired(y_true, y_pred, dtype=object, ndim=1)
    if k < 1:
        raise ValueError(f"k must be at least 1, got {k}")
    scores = np.zeros(len(true))
    for row, (expected, predicted) in enumerate(zip(true, pred, strict=True)):
        relevant = set(str(expected).split(" "))  # never empty: "" splits to [""]
        seen: set[str] = set()
        hits, total = 0, 0.0
        for i, item in enumerate(str(predicted).split(" ")[:k]):
            if item in relevant and item not in seen:
                hits += 1
                total += hits / (i + 1)
            seen.add(item)
        scores[row] = total / min(len(relevant), k)
    return float(scores.mean())


def lwlrap(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Label-weighted label-ranking average precision (freesound-audio-tagging-2019).

    For each positive label ``j`` of a row, precision is the share of positive labels among the labels
    scored at least as high as ``j`` (ties count against the prediction). Averaging over all positive
    (row, label) pairs gives lwlrap; it equals scikit-learn's ``label_ranking_average_precision_score``
    weighted by the number of positives per row, over rows with at least one positive, as MLE-bench
    computes it. Rows without positives are left out.

    Parameters
    ----------
    y_true
        ``(n_rows, n_labels)`` array; values > 0 are positive.
    y_pred
        ``(n_rows, n_labels)`` array of scores.

    Returns
    -------
    float
        lwlrap in (0, 1]; higher is better.

    Raises
    ------
    ValueError
        If no row has a positive label.

    Examples
    --------
    >>> lwlrap([[1, 0, 0], [0, 1, 1]], [[0.9, 0.5, 0.1], [0.8, 0.7, 0.1]])  # (1 + 1/2 + 2/3) / 3
    0.7222222222222222
    >>> lwlrap([[0, 1]], [[0.5, 0.5]])  # a tie with a negative label halves the precision
    0.5

    """
    true, pred = paired(y_true, y_pred, dtype=np.float64, ndim=2)
    positive = true > 0
    keep = positive.any(axis=1)
    if not keep.any():
        raise ValueError("lwlrap is undefined when no row has a positive label")
    positive, pred = positive[keep], pred[keep]
    n_labels = pred.shape[1]
    step = max(1, _CELLS // (n_labels * n_labels))
    total = 0.0
    for start in range(0, len(pred), step):
        scores, pos = pred[start : start + step], positive[start : start + step]
        at_least = scores[:, None, :] >= scores[:, :, None]  # [r, j, l]: label l scored >= label j
        precision = (at_least & pos[:, None, :]).sum(axis=2) / at_least.sum(axis=2)
        total += precision[pos].sum()
    return float(total / positive.sum())
