"""Modified Laplace log-likelihood on each patient's last measured weeks (osic-pulmonary-fibrosis)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._tables import floats, tables


def laplace_log_likelihood(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    id_column: str = "Patient_Week",
    fvc_column: str = "FVC",
    confidence_column: str = "Confidence",
    last_weeks: int = 3,
) -> float:
    """Mean of ``-sqrt(2) * delta / sigma - log(sqrt(2) * sigma)`` over each patient's last measured weeks.

    ``sigma = max(confidence, 70)`` and ``delta = min(|FVC_true - FVC_pred|, 1000)``. Answer rows with a
    blank FVC (weeks without a visit) are dropped; of the rest, each patient's ``last_weeks`` latest weeks
    (the integer after the last ``_`` of the id; the patient is what precedes it) are scored. v1 sorts both
    sides by id before pairing, so with unique, complete ids (which validation enforces) it is
    order-independent and no variant is needed.

    Parameters
    ----------
    y_true
        Answers frame (``numeric_table`` kind) with ``id_column`` and ``fvc_column`` (blank = no visit).
    y_pred
        Submitted ``fvc_column`` and ``confidence_column`` as floats, aligned with ``y_true`` by id.
    id_column, fvc_column, confidence_column
        Column names.
    last_weeks
        How many of each patient's latest measured weeks are scored.

    Returns
    -------
    float
        Higher (less negative) is better.

    Examples
    --------
    >>> t = pd.DataFrame({"Patient_Week": ["p_1", "p_2", "p_3", "p_4"], "FVC": ["2000", "", "2000", "3000"]})
    >>> p = pd.DataFrame({"FVC": [0.0, 0.0, 2000.0, 2100.0], "Confidence": [70.0, 70.0, 70.0, 100.0]})
    >>> round(laplace_log_likelihood(t, p, last_weeks=2), 4)  # weeks 3 and 4: -4.5951 and -(12.7279 + 4.9517)
    -11.1374

    """
    y_true, y_pred = tables(y_true, y_pred)
    fvc_true = floats(y_true, fvc_column)
    scored = last_weeks_rows(y_true, id_column=id_column, fvc_column=fvc_column, last_weeks=last_weeks)
    rows = np.flatnonzero(scored)
    sigma = np.maximum(y_pred[confidence_column].to_numpy(np.float64)[rows], 70)
    delta = np.minimum(np.abs(fvc_true[rows] - y_pred[fvc_column].to_numpy(np.float64)[rows]), 1000)
    return float(np.mean(-np.sqrt(2) * delta / sigma - np.log(np.sqrt(2) * sigma)))


def last_weeks_rows(
    y_true: pd.DataFrame,
    *,
    id_column: str = "Patient_Week",
    fvc_column: str = "FVC",
    last_weeks: int = 3,
    **_: object,
) -> np.ndarray:
    """Mark the answer rows :func:`laplace_log_likelihood` scores: each patient's latest measured weeks.

    A boolean mask over ``y_true``'s rows (blank FVC rows are never scored); other keyword arguments (the
    metric's remaining options) are accepted and ignored, so the registry can pass the metric's arguments.

    Examples
    --------
    >>> t = pd.DataFrame({"Patient_Week": ["p_4", "p_1", "p_2", "q_9"], "FVC": ["3000", "2000", "", "1"]})
    >>> last_weeks_rows(t, last_weeks=1).tolist()
    [True, False, False, True]

    """
    fvc_true = floats(y_true, fvc_column)
    split = y_true[id_column].astype(str).str.rsplit("_", n=1, expand=True)
    frame = pd.DataFrame({"patient": split[0], "week": split[1].astype(int), "row": np.arange(len(y_true))})
    frame = frame[~np.isnan(fvc_true)].sort_values("week", kind="stable")
    mask = np.zeros(len(y_true), dtype=bool)
    mask[frame.groupby("patient", sort=False).tail(last_weeks)["row"].to_numpy()] = True
    return mask
