"""Mean column-wise RMSE over scored positions (stanford-covid-vaccine)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from ._tables import floats, tables

SCORED = ("reactivity", "deg_Mg_pH10", "deg_Mg_50C")


def mcrmse(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    columns: Sequence[str] = SCORED,
    id_column: str = "id_seqpos",
    keep_column: str = "keep",
) -> float:
    """Mean over ``columns`` of the RMSE, on the rows whose answer ``keep_column`` is true.

    v1 sorts both frames by id, builds the keep mask from the sorted answers and applies it to the sorted
    submission by *index label*, i.e. submission file row ``i`` is kept when answers file row ``i`` is
    (spec section 9.2 item 4). A submission in the answers' file order is scored correctly; any other order
    scores the wrong positions. :func:`mcrmse_fixed` applies the mask to the row with the same id.

    Parameters
    ----------
    y_true
        Answers frame (``numeric_table`` kind) with ``id_column``, ``keep_column`` and ``columns``.
    y_pred
        Submitted columns as floats, answers' row order, indexed by submission file position.
    columns, id_column, keep_column
        Scored columns, the id and the boolean column marking scored rows.

    Returns
    -------
    float
        MCRMSE; lower is better.

    Examples
    --------
    >>> t = pd.DataFrame({"id_seqpos": ["a_0", "a_1", "a_2"], "keep": ["True", "True", "False"],
    ...                   "r": ["1", "2", "0"]})
    >>> mcrmse(t, pd.DataFrame({"r": [1.0, 4.0, 9.0]}), columns=["r"])  # sqrt((0 + 4) / 2)
    1.4142135623730951
    >>> mcrmse(t, pd.DataFrame({"r": [1.0, 4.0, 9.0]}, index=[2, 1, 0]), columns=["r"])  # v1 scores rows 2, 3
    5.385164807134504

    """
    return _mcrmse(y_true, y_pred, columns=columns, id_column=id_column, keep_column=keep_column, v1=True)


def mcrmse_fixed(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    columns: Sequence[str] = SCORED,
    id_column: str = "id_seqpos",
    keep_column: str = "keep",
) -> float:
    """Like :func:`mcrmse`, with v1's departure from the metric's definition corrected.

    The keep mask is applied to the row with the same id, not the same file position.

    Examples
    --------
    >>> t = pd.DataFrame({"id_seqpos": ["a_0", "a_1", "a_2"], "keep": ["True", "True", "False"],
    ...                   "r": ["1", "2", "0"]})
    >>> mcrmse_fixed(t, pd.DataFrame({"r": [1.0, 4.0, 9.0]}, index=[2, 1, 0]), columns=["r"])
    1.4142135623730951

    """
    return _mcrmse(y_true, y_pred, columns=columns, id_column=id_column, keep_column=keep_column, v1=False)


def _mcrmse(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    columns: Sequence[str] = SCORED,
    id_column: str = "id_seqpos",
    keep_column: str = "keep",
    v1: bool,
) -> float:
    """Score :func:`mcrmse` (``v1``: MLE-bench v1's way) or :func:`mcrmse_fixed`."""
    y_true, y_pred = tables(y_true, y_pred)
    keep = y_true[keep_column].astype(str).str.strip().str.lower().isin(["true", "1", "1.0"]).to_numpy()
    order = np.argsort(y_true[id_column].to_numpy(dtype=str), kind="stable")  # v1's sort by id
    true_rows = order[keep[order]]
    if v1:
        positions = np.asarray(y_pred.index, dtype=np.intp)  # submission file row of each aligned row
        pred_rows = order[keep[positions[order]]]
    else:
        pred_rows = true_rows
    errors = [
        np.sqrt(np.mean((floats(y_true, c)[true_rows] - y_pred[c].to_numpy(np.float64)[pred_rows]) ** 2))
        for c in columns
    ]
    return float(np.mean(errors))
