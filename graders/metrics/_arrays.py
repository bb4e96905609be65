"""Shape checks shared by the metric functions (private: metrics assume validated input)."""

from __future__ import annotations

import numpy as np
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


def average_ranks(values: np.ndarray) -> np.ndarray:
    """Ranks from 1, tied values sharing the mean of their ranks: ``scipy.stats.rankdata(values)``.

    Written out so that scoring does not import scipy.stats (a second and ~50 MB). Each rank is an integer
    or a half, exact in float64, so the values equal scipy's bit for bit.
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
