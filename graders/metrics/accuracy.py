"""Accuracy: the fraction of rows whose predicted label equals the true label exactly."""

from __future__ import annotations

import numpy as np
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


def top1_error(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Top-1 error: the fraction of rows whose **first** predicted class id is not the true class id.

    A prediction may list several ids separated by whitespace; only the first counts, and ids compare
    as integers (``"07"`` is 7), as in MLE-bench's inaturalist-2019-fgvc6 grader
    (``1 - accuracy`` of ``int(first token)``).

    Parameters
    ----------
    y_true
        1-D array of integer class ids (or their strings).
    y_pred
        1-D array of predictions, each one id or a whitespace-separated list of ids.

    Returns
    -------
    float
        Error in [0, 1]; lower is better.

    Examples
    --------
    >>> top1_error(["3", "7", "7", "1"], ["3 7", "07", "1 7", "2"])
    0.5

    Raises
    ------
    ValueError
        If an id or a first token is not an integer, or a prediction is blank (validation rejects
        these before scoring).

    """
    true, pred = paired(y_true, y_pred, dtype=object, ndim=1)
    truth = np.array([int(t) for t in true], dtype=np.int64)
    first = np.array([int(str(p).split()[0]) if str(p).split() else _blank() for p in pred], dtype=np.int64)
    return float(1.0 - (truth == first).mean())


def _blank() -> int:
    raise ValueError("top1_error: a blank prediction has no first class id")
