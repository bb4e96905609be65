"""Mean over groups of log(MAE) (champs-scalar-coupling)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._tables import floats, tables

FIXED_FLOOR = 1e-9
"""Smallest MAE inside the log in :func:`log_mae_by_group_fixed` (Kaggle's floor)."""


def log_mae_by_group(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    target_column: str = "scalar_coupling_constant",
    group_column: str = "type",
) -> float:
    """Mean over the groups (answer column ``group_column``) of ``log(mean(|pred - true|))``.

    v1 has no floor on the MAE, so a group predicted exactly gives ``log(0) = -inf`` and the score is
    ``-inf`` (spec section 9.2 item 14); :func:`log_mae_by_group_fixed` floors each MAE at 1e-9 as Kaggle did.

    Parameters
    ----------
    y_true
        Answers frame (``numeric_table`` kind) with ``target_column`` and ``group_column``.
    y_pred
        Frame with ``target_column`` as floats, aligned with ``y_true`` by id.
    target_column, group_column
        The scored column and the answer column that defines the groups.

    Returns
    -------
    float
        Lower is better; may be negative.

    Examples
    --------
    >>> t = pd.DataFrame({"type": ["1JHC", "1JHC", "2JHH"], "y": ["1", "2", "3"]})
    >>> p = pd.DataFrame({"y": [2.0, 2.0, 3.0]})
    >>> log_mae_by_group(t, p, target_column="y")
    -inf

    """
    return _log_mae_by_group(y_true, y_pred, target_column=target_column, group_column=group_column, v1=True)


def log_mae_by_group_fixed(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    target_column: str = "scalar_coupling_constant",
    group_column: str = "type",
) -> float:
    """Like :func:`log_mae_by_group`, with v1's departure from the metric's definition corrected.

    Each group's MAE is floored at 1e-9 as Kaggle did, so an exact group scores log(1e-9), not -inf.

    Examples
    --------
    >>> t = pd.DataFrame({"type": ["1JHC", "1JHC", "2JHH"], "y": ["1", "2", "3"]})
    >>> p = pd.DataFrame({"y": [2.0, 2.0, 3.0]})
    >>> round(log_mae_by_group_fixed(t, p, target_column="y"), 6)  # (log 0.5 + log 1e-9) / 2
    -10.708207

    """
    return _log_mae_by_group(y_true, y_pred, target_column=target_column, group_column=group_column, v1=False)


def _log_mae_by_group(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    target_column: str = "scalar_coupling_constant",
    group_column: str = "type",
    v1: bool,
) -> float:
    """Score :func:`log_mae_by_group` (``v1``: MLE-bench v1's way) or :func:`log_mae_by_group_fixed`."""
    y_true, y_pred = tables(y_true, y_pred)
    groups, inverse = np.unique(y_true[group_column].to_numpy(dtype=str), return_inverse=True)
    errors = np.abs(y_pred[target_column].to_numpy(np.float64) - floats(y_true, target_column))
    mae = np.bincount(inverse, weights=errors) / np.bincount(inverse)
    if not v1:
        mae = np.maximum(mae, FIXED_FLOOR)
    with np.errstate(divide="ignore"):
        return float(np.mean(np.log(mae)))
