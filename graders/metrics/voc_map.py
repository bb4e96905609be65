"""Mean over classes of the average precision at IoU > 0.5 (siim-covid19-detection)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..boxes import parse_boxes_or_raise
from ..inputs import INPUTS
from ._arrays import score_steps
from ._tables import tables

_LAYOUT = INPUTS["voc_map"].layout
"""How the prediction strings are laid out: the validation entry's, so both read them alike."""


def voc_map(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    column: str = "PredictionString",
    iou_threshold: float = 0.5,
) -> float:
    """v1's VOC-style mAP: per class, sklearn average precision over (matched, confidence) pairs.

    Strings hold ``label conf x1 y1 x2 y2`` tuples. The classes are the labels found in the answers
    (predicted labels outside them are ignored). Per row and class, predictions are taken by descending
    confidence (stable) and each is matched greedily to the unmatched truth box of highest IoU, if that
    IoU exceeds ``iou_threshold`` (ties: the first box). A match gives the pair ``(1, conf)``, a miss
    ``(0, conf)``, an unmatched truth box ``(1, 0)``, and a row with neither boxes nor predictions of the
    class ``(0, 0)`` (v1's device to keep AP defined). Score = mean of the class APs.

    Parameters
    ----------
    y_true, y_pred
        Answers frame and submitted strings (``boxes`` kind), aligned by id.
    column
        The prediction-string column.
    iou_threshold
        Strict lower bound on the IoU of a match.

    Returns
    -------
    float
        In [0, 1]; higher is better.

    Examples
    --------
    >>> t = pd.DataFrame({"PredictionString": ["a 1 0 0 10 10", "b 1 0 0 1 1"]})
    >>> p = pd.DataFrame({"PredictionString": ["a 0.9 0 0 10 8 a 0.8 0 0 10 10", "a 0.7 0 0 1 1"]})
    >>> round(voc_map(t, p), 6)  # a: (1,.9) (0,.8) (0,.7) (0,0): AP 1; b: (1,0) (0,0): AP 0.5
    0.75

    """
    y_true, y_pred = tables(y_true, y_pred)
    truth = parse_boxes_or_raise(y_true[column].to_numpy(dtype=object), _LAYOUT, "y_true")
    pred = parse_boxes_or_raise(y_pred[column].to_numpy(dtype=object), _LAYOUT, "y_pred")
    aps = []
    for label in np.unique(truth.labels):
        t_sel, p_sel = truth.labels == label, pred.labels == label
        t_owner, p_owner = truth.owner[t_sel], pred.owner[p_sel]
        t_boxes, p_boxes, p_conf = truth.numbers[t_sel, 1:], pred.numbers[p_sel, 1:], pred.numbers[p_sel, 0]
        # rows are processed independently; sort predictions by (row, -confidence), stable
        order = np.lexsort((-p_conf, p_owner))
        p_owner, p_boxes, p_conf = p_owner[order], p_boxes[order], p_conf[order]
        matched = np.zeros(len(p_conf), dtype=bool)
        t_used = np.zeros(len(t_owner), dtype=bool)
        for row in np.intersect1d(t_owner, p_owner):
            ti, pi = np.flatnonzero(t_owner == row), np.flatnonzero(p_owner == row)
            iou = _iou(p_boxes[pi], t_boxes[ti])
            free = np.ones(len(ti), dtype=bool)
            for j in range(len(pi)):  # greedy and sequential by nature; only rows with both sides get here
                candidates = np.where(free & (iou[j] > iou_threshold), iou[j], -1.0)
                best = int(np.argmax(candidates))
                if candidates[best] > 0:
                    free[best], matched[pi[j]] = False, True
            t_used[ti[~free]] = True
        n_rows = truth.count
        empty_rows = n_rows - len(np.union1d(t_owner, p_owner))
        y = np.r_[
            matched.astype(int), np.ones(int((~t_used).sum()), dtype=int), np.zeros(empty_rows, dtype=int)
        ]
        s = np.r_[p_conf, np.zeros(int((~t_used).sum()) + empty_rows)]
        if y.all():
            raise ValueError(f"class {label!r}: every pair is positive, so AP is undefined (v1 asserts this)")
        aps.append(_average_precision(y, s))
    return float(np.mean(aps)) if aps else 0.0


def _average_precision(y: np.ndarray, score: np.ndarray) -> float:
    """``sklearn.metrics.average_precision_score(y, score)`` for 0/1 ``y``, bit for bit, without sklearn.

    Importing sklearn.metrics cost more than the rest of siim-covid19's grading (docs/performance.md).
    sklearn's steps: scores in descending order; at the last row of each distinct score, true positives as a
    float64 cumulative sum and false positives as the rows so far minus them; precision there, recall (all 1
    when there is no positive), both reversed with a final 1 and 0; then the step integral ``-sum(diff(recall)
    * precision[:-1])``, never below 0. The order of tied scores cannot change it.
    """
    tps, fps = score_steps(y, score)
    precision = tps / (tps + fps)  # every prefix holds a row: sklearn's zero guard never applies
    recall = np.full(tps.shape, 1.0) if tps[-1] == 0 else tps / tps[-1]
    precision, recall = np.r_[np.flip(precision), 1.0], np.r_[np.flip(recall), 0.0]
    return float(max(0.0, -np.sum(np.diff(recall) * precision[:-1])))


def _iou(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    """IoU of every box in ``a`` with every box in ``b`` (``x1 y1 x2 y2``); 0 where the union is 0."""
    a, b = a[:, None, :], b[None, :, :]
    iw = np.maximum(0, np.minimum(a[..., 2], b[..., 2]) - np.maximum(a[..., 0], b[..., 0]))
    ih = np.maximum(0, np.minimum(a[..., 3], b[..., 3]) - np.maximum(a[..., 1], b[..., 1]))
    inter = iw * ih
    union = (
        (a[..., 2] - a[..., 0]) * (a[..., 3] - a[..., 1])
        + (b[..., 2] - b[..., 0]) * (b[..., 3] - b[..., 1])
        - inter
    )
    return np.where(union > 0, inter / np.where(union > 0, union, 1), 0.0)
