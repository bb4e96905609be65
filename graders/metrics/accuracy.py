"""Accuracy: the fraction of rows whose predicted label equals the true label, as v1 compares them."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
from numpy.typing import ArrayLike

from .._cells import as_text
from ._arrays import paired

_BOOLEANS = {"True": 1.0, "TRUE": 1.0, "true": 1.0, "False": 0.0, "FALSE": 0.0, "false": 0.0}


def accuracy(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Fraction of rows where the prediction equals the answer.

    MLE-bench v1 reads both files with pandas and compares what pandas makes of each column: when every
    cell of both columns is a number (or every cell a pandas boolean word, which counts as 1 or 0), labels
    compare as numbers, so ``"3"`` equals ``"3.0"`` and ``" 3"``, and ``"True"`` equals ``"1"``;
    otherwise as exact strings, so ``"cat"`` differs from ``"Cat"`` (phoneme sequences, words, mixed
    columns).

    Parameters
    ----------
    y_true, y_pred
        1-D arrays of labels (strings), aligned by row.

    Returns
    -------
    float
        Accuracy in [0, 1]; higher is better.

    Examples
    --------
    >>> accuracy(["cat", "dog", "dog", "bird"], ["cat", "dog", "cat", "bird"])
    0.75
    >>> accuracy(["1", "2"], ["1.0", " 2"]), accuracy(["True", "False"], ["1", "1"])
    (1.0, 0.5)
    >>> accuracy(["True", "False", "1"], ["true", "False", "1.0"])  # mixed columns stay text
    0.3333333333333333

    """
    true, pred = paired(y_true, y_pred, dtype=object, ndim=1)
    true, pred = as_text(true), as_text(pred)
    true_values = _as_pandas_reads(true)
    pred_values = None if true_values is None else _as_pandas_reads(pred)  # numbers only if both are
    if true_values is not None and pred_values is not None:
        return float((true_values == pred_values).mean())
    return float((true == pred).mean())


_SAMPLE = 1024


def _as_pandas_reads(labels: np.ndarray) -> np.ndarray | None:
    """Labels as numbers when pandas would read the whole column as numbers or booleans, else None.

    The first rows are tried alone first: a column of words fails there, without converting a million
    strings to find out (a row that is neither a number nor a boolean word fails the whole column).
    """
    if labels.size == 0 or (labels.size > _SAMPLE and _as_pandas_reads(labels[:_SAMPLE]) is None):
        return None
    text = pc.utf8_trim_whitespace(pa.array(labels, type=pa.string()))
    try:
        return np.asarray(pc.cast(text, pa.float64()).to_numpy(zero_copy_only=False))
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        pass
    words = text.to_numpy(zero_copy_only=False)
    if all(w in _BOOLEANS for w in set(words)):
        return np.array([_BOOLEANS[w] for w in words])
    return None


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
