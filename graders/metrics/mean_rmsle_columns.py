"""Mean over target columns of the RMSLE (nomad2018-predict-transparent-conductors)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ._tables import floats, in_file_order, tables


def mean_rmsle_columns(
    y_true: pd.DataFrame, y_pred: pd.DataFrame, *, columns: Sequence[str] | None = None
) -> float:
    """Mean over ``columns`` of ``sqrt(mean((log1p(pred) - log1p(true)) ** 2))``.

    v1 pairs answers and submission rows **by position** (no id check, no sort; spec section 9.2 item 7),
    so this metric pairs answers row ``i`` with submission file row ``i``; :func:`mean_rmsle_columns_fixed`
    pairs rows by id.

    Parameters
    ----------
    y_true
        Answers frame (``numeric_table`` kind) holding ``columns``.
    y_pred
        Submitted columns as floats, answers' row order, indexed by submission file position.
    columns
        Target columns; default: every column of ``y_pred``.

    Returns
    -------
    float
        Mean RMSLE; lower is better.

    Raises
    ------
    ValueError
        If any value is negative (as sklearn's ``root_mean_squared_log_error`` in v1).

    Examples
    --------
    >>> t = pd.DataFrame({"a": ["1", "3"], "b": ["0", "0"]})
    >>> round(mean_rmsle_columns(t, pd.DataFrame({"a": [3.0, 1.0], "b": [0.0, 0.0]})), 6)  # (log 2 + 0) / 2
    0.346574
    >>> swapped = pd.DataFrame({"a": [3.0, 1.0], "b": [0.0, 0.0]}, index=[1, 0])  # file rows swapped
    >>> mean_rmsle_columns(t, swapped)  # v1 pairs by file position
    0.0

    """
    return _mean_rmsle_columns(y_true, y_pred, columns=columns, v1=True)


def mean_rmsle_columns_fixed(
    y_true: pd.DataFrame, y_pred: pd.DataFrame, *, columns: Sequence[str] | None = None
) -> float:
    """Like :func:`mean_rmsle_columns`, with v1's departure from the metric's definition corrected.

    Answers and submission rows are paired by id, not by file position.

    Examples
    --------
    >>> t = pd.DataFrame({"a": ["1", "3"], "b": ["0", "0"]})
    >>> swapped = pd.DataFrame({"a": [3.0, 1.0], "b": [0.0, 0.0]}, index=[1, 0])  # file rows swapped
    >>> round(mean_rmsle_columns_fixed(t, swapped), 6)  # paired by id: (log 2 + 0) / 2
    0.346574

    """
    return _mean_rmsle_columns(y_true, y_pred, columns=columns, v1=False)


def _mean_rmsle_columns(
    y_true: pd.DataFrame, y_pred: pd.DataFrame, *, columns: Sequence[str] | None = None, v1: bool
) -> float:
    """Score :func:`mean_rmsle_columns` (``v1``: MLE-bench v1's way) or :func:`mean_rmsle_columns_fixed`."""
    y_true, y_pred = tables(y_true, y_pred)
    pred = in_file_order(y_pred) if v1 else y_pred
    scores = []
    for column in columns if columns is not None else list(y_pred.columns):
        t, p = floats(y_true, column), pred[column].to_numpy(dtype=np.float64)
        if (t < 0).any() or (p < 0).any():
            raise ValueError("RMSLE is undefined for negative values")
        scores.append(np.sqrt(np.mean((np.log1p(p) - np.log1p(t)) ** 2)))
    return float(np.mean(scores))
