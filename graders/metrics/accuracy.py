"""Accuracy: the fraction of rows whose predicted label equals the true label exactly."""

from __future__ import annotations

from numpy.typing import ArrayLike

from ._arrays import paired


def accuracy(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Fraction of rows where the prediction equals the answer.

    Labels are compared as exact strings, so ``"True"`` and ``"true"`` differ, as do ``"1"`` and
    ``"1.0"``. This also serves string outputs such as phoneme sequences.

    Parameters
    ----------
    y_true, y_pred
        1-D arrays of labels, aligned by row.

    Returns
    -------
    float
        Accuracy in [0, 1]; higher is better.

    Examples
    --------
    >>> accuracy(["cat", "dog", "dog", "bird"], ["cat", "dog", "cat", "bird"])
    0.75
    >>> accuracy(["1", "2"], ["1.0", "2"])
    0.5

    """
    true, pred = paired(y_true, y_pred, dtype=object, ndim=1)
    return float((true.astype(str) == pred.astype(str)).mean())
