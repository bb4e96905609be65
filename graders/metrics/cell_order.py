"""Kendall tau over cell orders (Kaggle's AI4Code metric): 1 minus 4 times the inversion rate."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._arrays import paired

_BLOCK = 1024
"""Rows of the pairwise comparison done at once, to bound memory for very long notebooks."""


def kendall_tau_cell_order(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Kendall tau pooled over rows: ``1 - 4 * sum(inversions) / sum(n (n - 1))``.

    Each row is a whitespace-separated order of the same cell ids. An inversion is a pair of cells that
    the prediction puts in the opposite order to the answer. The counts are pooled over all rows before
    dividing (long notebooks weigh more), as in MLE-bench's AI4Code grader.

    Parameters
    ----------
    y_true, y_pred
        1-D arrays of strings, aligned by row; each predicted row is a reordering of its true row.

    Returns
    -------
    float
        Tau in [-1, 1]; higher is better.

    Raises
    ------
    ValueError
        If a predicted row is not a reordering of its true row (validation rejects this before scoring),
        or every row has fewer than two cells.

    Examples
    --------
    >>> kendall_tau_cell_order(["a b c d"], ["a b c d"])
    1.0
    >>> kendall_tau_cell_order(["a b c d"], ["d c b a"])
    -1.0
    >>> kendall_tau_cell_order(["a b c", "x y"], ["b a c", "x y"])  # 1 inversion of 3 + 1 pairs
    0.5

    """
    true, pred = paired(y_true, y_pred, dtype=object, ndim=1)
    inversions = pairs = 0
    for row, (expected, predicted) in enumerate(zip(true, pred, strict=True)):
        order, cells = str(expected).split(), str(predicted).split()
        if sorted(order) != sorted(cells):
            raise ValueError(f"row {row}: the predicted cells are not a reordering of the true cells")
        position = {cell: i for i, cell in enumerate(order)}
        inversions += _inversions(np.array([position[c] for c in cells], dtype=np.int64))
        pairs += len(order) * (len(order) - 1)
    if pairs == 0:
        raise ValueError("kendall tau is undefined when no row has two or more cells")
    return 1 - 4 * inversions / pairs


def _inversions(ranks: np.ndarray) -> int:
    """Pairs ``i < j`` with ``ranks[i] > ranks[j]``."""
    total = 0
    for start in range(0, len(ranks), _BLOCK):
        block = ranks[start : start + _BLOCK]
        later = np.arange(start, start + len(block))[:, None] < np.arange(len(ranks))[None, :]
        total += int(np.count_nonzero(later & (block[:, None] > ranks[None, :])))
    return total
