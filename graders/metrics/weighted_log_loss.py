"""Weighted multi-label log loss of rsna-2022-cervical-spine-fracture-detection."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

EPS = 1e-15
"""Predictions are clipped to ``[EPS, 1 - EPS]``."""

TARGETS = ("patient_overall", "C1", "C2", "C3", "C4", "C5", "C6", "C7")
"""The prediction types of a study, in the order of :data:`NEGATIVE_WEIGHTS` and :data:`POSITIVE_WEIGHTS`."""
NEGATIVE_WEIGHTS = np.array([7, 1, 1, 1, 1, 1, 1, 1], dtype=np.float64)
POSITIVE_WEIGHTS = np.array([14, 2, 2, 2, 2, 2, 2, 2], dtype=np.float64)


def weighted_multilabel_log_loss(
    y_true: pd.DataFrame, y_pred: pd.DataFrame, *, id_column: str = "row_id", target: str = "fractured"
) -> float:
    """Mean over studies of the weighted mean binary log loss of the study's eight labels.

    Each row id is ``"{study}_{type}"`` (split at the first ``_``) with type one of :data:`TARGETS`.
    A label's binary log loss (prediction clipped to ``[1e-15, 1 - 1e-15]``) is weighted 7 (negative) or
    14 (positive) for ``patient_overall`` and 1 or 2 for a vertebra; each study scores
    ``sum(w * loss) / sum(w)`` and the score is the mean over studies, as MLE-bench's grader computes
    it. Rows of other types are ignored; a study missing one of the eight types makes the score NaN
    (v1 pivots the rows into a table with a hole there).

    Parameters
    ----------
    y_true
        The answers frame (``numeric_table`` kind): ``id_column`` and 0/1 ``target`` columns, as strings.
    y_pred
        The submitted ``target`` column as floats, in the answers' row order.
    id_column, target
        Column names.

    Returns
    -------
    float
        Weighted log loss >= 0 (natural log); lower is better.

    Raises
    ------
    ValueError
        If a prediction is above 1 or below 0 (v1 rejects the submission), or an answer is not 0/1.

    Examples
    --------
    >>> ids = [f"s1_{t}" for t in TARGETS]
    >>> answers = pd.DataFrame({"row_id": ids, "fractured": ["1"] + ["0"] * 7})
    >>> round(weighted_multilabel_log_loss(answers, pd.DataFrame({"fractured": [0.5] * 8})), 6)  # ln 2
    0.693147
    >>> round(weighted_multilabel_log_loss(answers, pd.DataFrame({"fractured": [1.0] + [0.0] * 7})), 9)
    0.0

    """
    truth = pd.to_numeric(y_true[target]).to_numpy(dtype=np.float64)
    pred = np.asarray(y_pred[target], dtype=np.float64)
    if not np.isin(truth, (0.0, 1.0)).all():
        raise ValueError(f"answers column {target!r} must hold 0/1 labels")
    if (pred < 0).any() or (pred > 1).any():
        raise ValueError(f"predictions in {target!r} must lie in [0, 1]")
    # Split by Arrow: fixed-width numpy copies, or pandas' tuples of Python strings, took 5-8 MB at 14k rows.
    ids = pa.array(y_true[id_column].astype(str), type=pa.large_string())
    parts = pc.extract_regex(ids, r"(?s)^(?P<study>[^_]*)_(?P<type>.*)$")  # no `_`: null, not scored
    position = pc.index_in(pc.struct_field(parts, "type"), value_set=pa.array(TARGETS))
    position = position.to_numpy(zero_copy_only=False).astype(np.float64)  # NaN: a type of no target
    scored = ~np.isnan(position)
    position = position[scored].astype(np.intp)
    truth, pred = truth[scored], np.clip(pred[scored], EPS, 1 - EPS)
    study = pc.struct_field(parts, "study").to_numpy(zero_copy_only=False)
    owner, studies = pd.factorize(study[scored], sort=True)  # studies in np.unique's order
    if np.bincount(owner, minlength=len(studies)).min() < len(TARGETS) or len(
        np.unique(owner * len(TARGETS) + position)
    ) < len(studies) * len(TARGETS):
        return float("nan")
    loss = -(truth * np.log(pred) + (1 - truth) * np.log(1 - pred))
    weight = np.where(truth == 1, POSITIVE_WEIGHTS[position], NEGATIVE_WEIGHTS[position])
    per_study = np.bincount(owner, weights=weight * loss) / np.bincount(owner, weights=weight)
    return float(per_study.mean())
