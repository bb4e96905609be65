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
