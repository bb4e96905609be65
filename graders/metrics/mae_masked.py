"""Mean absolute error over the rows an answer-only column selects (ventilator-pressure-prediction)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._tables import floats, tables


def mae_masked(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    target_column: str,
    mask_column: str,
    keep_value: float = 0.0,
) -> float:
    """Mean of ``|pred - true|`` over the rows whose answer ``mask_column`` equals ``keep_value``.

    v1's ventilator grader keeps the answer rows with ``u_out == 0`` (the inspiratory phase) and takes the
    MAE there; rows with another mask value are not scored. If no row is kept the score is NaN.

    Parameters
    ----------
    y_true
        Answers frame (``numeric_table`` kind) with ``target_column`` and ``mask_column``.
    y_pred
        Frame with ``target_column`` as floats, aligned with ``y_true`` by id.
    target_column, mask_column
        The scored column and the answer-only column that selects rows.
    keep_value
        Rows whose mask equals this value are scored.

    Returns
    -------
    float
        Lower is better; 0 is perfect.

    Examples
    --------
    >>> t = pd.DataFrame({"u_out": ["0", "0", "1"], "pressure": ["5", "7", "9"]})
    >>> mae_masked(t, pd.DataFrame({"pressure": [6.0, 7.0, 100.0]}), target_column="pressure",
    ...            mask_column="u_out")
    0.5

    """
    y_true, y_pred = tables(y_true, y_pred)
    keep = kept_rows(y_true, mask_column=mask_column, keep_value=keep_value)
    if not keep.any():
        return float("nan")
    errors = np.abs(y_pred[target_column].to_numpy(np.float64) - floats(y_true, target_column))
    return float(errors[keep].mean())


def kept_rows(y_true: pd.DataFrame, *, mask_column: str, keep_value: float = 0.0, **_: object) -> np.ndarray:
    """Mark the answer rows :func:`mae_masked` scores: those whose ``mask_column`` equals ``keep_value``.

    Other keyword arguments (the metric's remaining options) are accepted and ignored.

    Examples
    --------
    >>> kept_rows(pd.DataFrame({"u_out": ["0", "1", "0"]}), mask_column="u_out").tolist()
    [True, False, True]

    """
    return floats(y_true, mask_column) == keep_value
