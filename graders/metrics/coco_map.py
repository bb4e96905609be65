"""COCO-style bbox mAP at one IoU threshold, as pycocotools' ``stats[0]`` (vinbigdata-chest-xray)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..boxes import parse_boxes_or_raise
from ..inputs import INPUTS
from ._tables import tables

_LAYOUT = INPUTS["coco_map"].layout
"""How the prediction strings are laid out: the validation entry's, so both read them alike."""

RECALL_THRESHOLDS = np.linspace(0.0, 1.00, int(np.round((1.00 - 0.0) / 0.01)) + 1, endpoint=True)
"""pycocotools' 101 recall points, built the same way."""
MAX_DETS = 100
AREA_ALL = (0.0, 1e5**2)


def coco_map(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    column: str = "PredictionString",
    iou_threshold: float = 0.4,
) -> float:
    """Pycocotools ``COCOeval(iouType="bbox")`` with ``iouThrs=[iou_threshold]``, returning ``stats[0]``.

    Strings hold ``class_id score x1 y1 x2 y2`` tuples; in the answers the score is ignored. Reproduces
    v1 (a Kaggle kernel around pycocotools) exactly:

    * boxes are given to COCO as ``[x1, y1, x2, y2]`` where it expects ``[x, y, w, h]``, so the IoU is
      computed on boxes ``[x1, x1 + x2] x [y1, y1 + y2]`` (spec section 9.2 item 13);
    * truth boxes are numbered from 0 in answers row order, detections from 0 in *submission file* order;
      pycocotools treats a match with id 0 as no match, so the first truth box can never be matched (a
      detection matched to it counts as a false positive) and a truth box matched by detection 0 stays
      free (spec section 9.x: a perfect submission scores below 1). :func:`coco_map_fixed` numbers from 1;
    * the categories are the answers' class ids; per image and class at most 100 detections count (the
      highest scores, stable order); a match needs IoU >= the threshold, the best free truth box wins and
      later boxes win ties; detections of area (``(x2 - x1) * (y2 - y1)``) outside [0, 1e10] that match
      nothing are ignored; precision is interpolated at 101 recall points; classes whose truth is empty
      are left out of the mean.

    Parameters
    ----------
    y_true
        Answers frame (``boxes`` kind): one row per image, in v1's image order (answers' first appearance).
    y_pred
        Submitted strings, answers' row order, indexed by submission file position.
    column
        The prediction-string column.
    iou_threshold
        The single IoU threshold (0.4 for vinbigdata).

    Returns
    -------
    float
        In [0, 1]; higher is better.

    Examples
    --------
    >>> t = pd.DataFrame({"PredictionString": ["0 1 0 0 4 4", "0 1 0 0 4 4 1 1 5 5 8 8"]})
    >>> round(coco_map(t, t), 5)  # perfect, but box 0 is lost: class 0 AP 51 * 0.5 / 101, class 1 AP 1
    0.62624

    """
    return _coco_map(y_true, y_pred, column=column, iou_threshold=iou_threshold, v1=True)


def coco_map_fixed(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    column: str = "PredictionString",
    iou_threshold: float = 0.4,
) -> float:
    """Like :func:`coco_map`, with v1's departure from the metric's definition corrected.

    Truth boxes and detections are numbered from 1, so no box is lost to pycocotools' id 0.

    Examples
    --------
    >>> t = pd.DataFrame({"PredictionString": ["0 1 0 0 4 4", "0 1 0 0 4 4 1 1 5 5 8 8"]})
    >>> coco_map_fixed(t, t)
    1.0

    """
    return _coco_map(y_true, y_pred, column=column, iou_threshold=iou_threshold, v1=False)


def _coco_map(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    column: str = "PredictionString",
    iou_threshold: float = 0.4,
    v1: bool,
) -> float:
    """Score :func:`coco_map` (``v1``: MLE-bench v1's way) or :func:`coco_map_fixed`."""
    y_true, y_pred = tables(y_true, y_pred)
    first = 0 if v1 else 1
    truth = parse_boxes_or_raise(y_true[column].to_numpy(dtype=object), _LAYOUT, "y_true")
    file_order = np.argsort(np.asarray(y_pred.index), kind="stable")  # detections numbered in file order
    pred_file = parse_boxes_or_raise(y_pred[column].to_numpy(dtype=object)[file_order], _LAYOUT, "y_pred")
    pred_owner = file_order[pred_file.owner]  # the image (answers row) of each detection
    t_class = truth.labels.astype(float).astype(np.int64)
    p_class = pred_file.labels.astype(float).astype(np.int64)
    t_id = np.arange(len(t_class)) + first
    p_id = np.arange(len(p_class)) + first
    t_box, p_box, p_score = truth.numbers[:, 1:], pred_file.numbers[:, 1:], pred_file.numbers[:, 0]
    t_area = (t_box[:, 2] - t_box[:, 0]) * (t_box[:, 3] - t_box[:, 1])
    p_area = (p_box[:, 2] - p_box[:, 0]) * (p_box[:, 3] - p_box[:, 1])
    t_ignored = (t_area < AREA_ALL[0]) | (t_area > AREA_ALL[1])
    p_out = (p_area < AREA_ALL[0]) | (p_area > AREA_ALL[1])

    aps = []
    for category in np.unique(t_class):
        ts, ps = np.flatnonzero(t_class == category), np.flatnonzero(p_class == category)
        n_truth = int(np.count_nonzero(~t_ignored[ts]))
        if n_truth == 0:
            continue
        # detections of this class per image: highest scores first (stable), at most MAX_DETS
        ps = ps[np.lexsort((-p_score[ps], pred_owner[ps]))]
        rank = np.arange(len(ps)) - np.searchsorted(pred_owner[ps], pred_owner[ps], side="left")
        ps = ps[rank < MAX_DETS]
        det_match = np.zeros(len(ps), dtype=np.int64)  # matched truth id, 0 = none (as pycocotools)
        det_ignored = np.zeros(len(ps), dtype=bool)
        for image in np.intersect1d(truth.owner[ts], pred_owner[ps]):
            gi, di = ts[truth.owner[ts] == image], np.flatnonzero(pred_owner[ps] == image)
            gi = gi[np.argsort(t_ignored[gi], kind="stable")]
            iou = _coco_iou(p_box[ps[di]], t_box[gi])
            taken = np.zeros(len(gi), dtype=np.int64)  # detection id holding each truth box, 0 = free
            for j, d in enumerate(di):  # greedy, sequential by nature: one image-class pair at a time
                best, m = min(iou_threshold, 1 - 1e-10), -1
                for g in range(len(gi)):
                    if taken[g] > 0:
                        continue
                    if m > -1 and not t_ignored[gi[m]] and t_ignored[gi[g]]:
                        break
                    if iou[j, g] < best:
                        continue
                    best, m = iou[j, g], g
                if m == -1:
                    continue
                det_ignored[d] = t_ignored[gi[m]]
                det_match[d] = t_id[gi[m]]
                taken[m] = p_id[ps[d]]
        det_ignored |= (det_match == 0) & p_out[ps]
        # all images together, by score (mergesort, images in order), as pycocotools' accumulate
        order = np.argsort(-p_score[ps], kind="mergesort")
        tp = np.cumsum((det_match[order] != 0) & ~det_ignored[order]).astype(float)
        fp = np.cumsum((det_match[order] == 0) & ~det_ignored[order]).astype(float)
        aps.append(_interpolated_precision(tp, fp, n_truth).mean())
    return float(np.mean(aps)) if aps else -1.0


def _interpolated_precision(tp: np.ndarray, fp: np.ndarray, n_truth: int) -> np.ndarray:
    """Precision at the 101 recall points (0 past the highest recall reached), as pycocotools."""
    q = np.zeros(len(RECALL_THRESHOLDS))
    if len(tp) == 0:
        return q
    recall = tp / n_truth
    precision = np.maximum.accumulate((tp / (fp + tp + np.spacing(1)))[::-1])[::-1]
    index = np.searchsorted(recall, RECALL_THRESHOLDS, side="left")
    valid = index < len(tp)
    q[valid] = precision[index[valid]]
    return q


def _coco_iou(dets: np.ndarray, gts: np.ndarray) -> np.ndarray:
    """Pycocotools' bbox IoU on ``[x, y, w, h]`` boxes (here fed ``[x1, y1, x2, y2]``, as v1 does)."""
    d, g = dets[:, None, :], gts[None, :, :]
    iw = np.minimum(d[..., 0] + d[..., 2], g[..., 0] + g[..., 2]) - np.maximum(d[..., 0], g[..., 0])
    ih = np.minimum(d[..., 1] + d[..., 3], g[..., 1] + g[..., 3]) - np.maximum(d[..., 1], g[..., 1])
    inter = np.where((iw > 0) & (ih > 0), iw * ih, 0.0)
    union = d[..., 2] * d[..., 3] + g[..., 2] * g[..., 3] - inter
    return np.where((inter > 0) & (union != 0), inter / np.where(union != 0, union, 1), 0.0)
