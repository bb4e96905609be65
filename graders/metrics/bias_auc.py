"""Jigsaw unintended-bias metric: overall AUC blended with power means of per-identity bias AUCs."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd

from .roc_auc import roc_auc

IDENTITIES = (
    "male",
    "female",
    "homosexual_gay_or_lesbian",
    "christian",
    "jewish",
    "muslim",
    "black",
    "white",
    "psychiatric_or_mental_illness",
)
"""The identity columns of the answers that MLE-bench v1 scores."""
POWER = -5
"""Exponent of the generalised mean over identities."""
WEIGHT = 0.25
"""Weight of the overall AUC and of each of the three bias means."""


def jigsaw_bias_auc(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    target: str = "toxicity",
    identities: Sequence[str] = IDENTITIES,
) -> float:
    """Kaggle's jigsaw-unintended-bias metric, as MLE-bench v1 computes it.

    The answers' ``target`` and identity columns are binarised at 0.5 (blank cells count as 0). With
    AUC(rows) the ROC AUC of the predictions against the binary target on those rows, and for each
    identity its subgroup (rows mentioning it), BPSN (non-toxic rows mentioning it plus toxic rows that
    do not) and BNSP (toxic rows mentioning it plus non-toxic rows that do not), the score is
    ``0.25 * AUC(all) + 0.25 * sum over the three kinds of M``, where
    ``M = (mean over identities of AUC^-5)^(-1/5)``.

    This metric also binarises the **predictions** at 0.5 before every AUC, as v1 does (spec §9.2.1),
    so only hard labels count; :func:`jigsaw_bias_auc_fixed` uses the scores as given, as Kaggle did.

    Parameters
    ----------
    y_true
        The answers frame (``numeric_table`` kind) with the ``target`` and identity columns (strings).
    y_pred
        One column: the predicted toxicity, in the answers' row order.
    target, identities
        Answer column names.

    Returns
    -------
    float
        Score in [0, 1]; higher is better.

    Raises
    ------
    ValueError
        If some AUC has only one class among its rows (v1 then gives no score).

    Examples
    --------
    >>> answers = pd.DataFrame({"toxicity": ["0.9", "0.1", "0.7", "0.0"], "male": ["1", "1", "0", "0"]})
    >>> jigsaw_bias_auc(answers, pd.DataFrame({"p": [0.8, 0.2, 0.6, 0.1]}), identities=["male"])
    1.0
    >>> jigsaw_bias_auc(answers, pd.DataFrame({"p": [0.8, 0.2, 0.4, 0.1]}), identities=["male"])
    0.8125
    >>> # hard labels [1, 0, 0, 0]: overall 0.75; subgroup 1, BPSN 0.5 (a tie), BNSP 1 -> 0.1875 + 0.625

    """
    return _jigsaw_bias_auc(y_true, y_pred, target=target, identities=identities, v1=True)


def jigsaw_bias_auc_fixed(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    target: str = "toxicity",
    identities: Sequence[str] = IDENTITIES,
) -> float:
    """Like :func:`jigsaw_bias_auc`, with v1's departure from the metric's definition corrected.

    The predictions are used as given (not binarised at 0.5), as Kaggle did.

    Examples
    --------
    >>> answers = pd.DataFrame({"toxicity": ["0.9", "0.1", "0.7", "0.0"], "male": ["1", "1", "0", "0"]})
    >>> scores = pd.DataFrame({"p": [0.8, 0.2, 0.4, 0.1]})  # v1's hard labels score 0.8125
    >>> jigsaw_bias_auc_fixed(answers, scores, identities=["male"])  # the scores rank every pair right
    1.0

    """
    return _jigsaw_bias_auc(y_true, y_pred, target=target, identities=identities, v1=False)


def _jigsaw_bias_auc(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    target: str = "toxicity",
    identities: Sequence[str] = IDENTITIES,
    v1: bool,
) -> float:
    """Score :func:`jigsaw_bias_auc` (``v1``: MLE-bench v1's way) or :func:`jigsaw_bias_auc_fixed`."""
    if y_pred.shape[1] != 1:
        raise ValueError(f"y_pred must have one column, got {list(y_pred.columns)}")
    score = np.asarray(y_pred.iloc[:, 0], dtype=np.float64)
    if v1:
        score = (score >= 0.5).astype(np.float64)
    toxic = _binary(y_true[target])
    bias = []
    for identity in identities:
        mentioned = _binary(y_true[identity]) == 1
        subgroup = mentioned
        bpsn = (mentioned & (toxic == 0)) | (~mentioned & (toxic == 1))
        bnsp = (mentioned & (toxic == 1)) | (~mentioned & (toxic == 0))
        bias.append([roc_auc(toxic[rows], score[rows]) for rows in (subgroup, bpsn, bnsp)])
    means = (np.mean(np.asarray(bias, dtype=np.float64) ** POWER, axis=0)) ** (1 / POWER)
    return float(WEIGHT * roc_auc(toxic, score) + WEIGHT * means.sum())


def _binary(column: pd.Series) -> np.ndarray:
    """1 where the value is >= 0.5, else 0 (blank or NaN too), as v1's ``1 if x >= 0.5 else 0``."""
    values = pd.to_numeric(column, errors="coerce").to_numpy(dtype=np.float64)
    return (values >= 0.5).astype(np.float64)
