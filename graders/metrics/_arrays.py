"""Shape checks shared by the metric functions (private: metrics assume validated input)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd
from numpy.typing import ArrayLike, DTypeLike


def paired(
    y_true: ArrayLike, y_pred: ArrayLike, *, dtype: DTypeLike, ndim: int
) -> tuple[np.ndarray, np.ndarray]:
    """Return both inputs as arrays of ``dtype``; raise ValueError unless they share a non-empty shape."""
    true, pred = np.asarray(y_true, dtype=dtype), np.asarray(y_pred, dtype=dtype)
    if true.ndim != ndim or true.shape != pred.shape:
        raise ValueError(
            f"y_true and y_pred must both be {ndim}-D with the same shape, got {true.shape} and {pred.shape}"
        )
    if true.shape[0] == 0:
        raise ValueError("cannot score zero rows")
    return true, pred


def paired_slices(
    y_true: ArrayLike, y_pred: ArrayLike, rows: int
) -> Iterator[tuple[int, np.ndarray, np.ndarray]]:
    """Yield both 1-D inputs ``rows`` at a time as object arrays, each slice with its first row.

    Arrow-backed pandas arrays (the ``text`` kind's strings) are converted a slice at a time: a Python
    ``str`` for every cell of both whole columns at once would sit beside the Arrow columns they come from
    (billion-word: 0.6M cells, 150 MB). Raises as :func:`paired` does, naming both shapes.
    """
    y_true, y_pred = _sliceable(y_true), _sliceable(y_pred)
    if len(y_true) != len(y_pred):
        paired(y_true, y_pred, dtype=object, ndim=1)  # raises, naming both shapes
    for start in range(0, max(len(y_true), 1), rows):
        true, pred = paired(y_true[start : start + rows], y_pred[start : start + rows], dtype=object, ndim=1)
        yield start, true, pred
        del true, pred  # before the next slice's strings are made


def _sliceable(values: ArrayLike) -> np.ndarray | pd.api.extensions.ExtensionArray:
    """Return a pandas array (e.g. Arrow-backed strings) as is and anything else as a numpy array."""
    if isinstance(values, pd.api.extensions.ExtensionArray):
        return values
    return np.asarray(values, dtype=object)


def average_ranks(values: np.ndarray) -> np.ndarray:
    """Ranks from 1, tied values sharing the mean of their ranks: ``scipy.stats.rankdata(values)``.

    Written out so that scoring does not import scipy.stats (its cost: docs/performance.md). Each rank is an
    integer or a half, exact in float64, so the values equal scipy's bit for bit.
    """
    order = np.argsort(values, kind="mergesort")
    ordered = values[order]
    first = np.r_[True, ordered[1:] != ordered[:-1]]  # where each run of equal values starts
    starts = np.flatnonzero(first)
    counts = np.diff(np.r_[starts, len(values)])
    ranks = np.empty(len(values), dtype=np.float64)
    ranks[order] = np.repeat(starts + 1 + (counts - 1) / 2, counts)
    return ranks


def score_steps(positive: np.ndarray, score: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Return the true and false positives counted down to each distinct score, highest score first.

    scikit-learn's ``_binary_clf_curve`` without weights, on which its ROC and precision-recall curves
    stand: rows by descending score (stable), counts at the last row of each score. The counts are whole
    numbers in float64, so exact.
    """
    order = np.argsort(-score, kind="stable")
    ranked = score[order]
    ends = np.r_[np.flatnonzero(np.diff(ranked)), len(ranked) - 1]
    tps = np.cumsum(positive[order], dtype=np.float64)[ends]
    return tps, (ends + 1) - tps
