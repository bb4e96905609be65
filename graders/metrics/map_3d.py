"""3-D box mAP over IoU 0.50:0.05:0.95, per sample, then averaged (3d-object-detection, Lyft)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..boxes import parse_boxes_or_raise
from ..inputs import INPUTS
from ._tables import tables

_LAYOUT = INPUTS["map_3d"].layout
"""How the prediction strings are laid out: the validation entry's, so both read them alike."""

THRESHOLDS = (0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95)
_K = 8  # a convex quadrilateral clipped by another has at most 8 vertices


def map_3d(y_true: pd.DataFrame, y_pred: pd.DataFrame, *, column: str = "PredictionString") -> float:
    """Mean over samples (rows) and IoU thresholds of the Lyft devkit's per-sample mAP, as v1.

    Strings hold ``conf cx cy cz w l h yaw class`` tuples (the answers carry a dummy confidence). For each
    sample and threshold, the classes are the sample's true classes; a class without predictions has AP 0.
    Predictions of a class are taken by descending confidence (stable); each is compared with **all**
    true boxes of its class and sample and is a true positive if its best IoU (first maximum) exceeds the
    threshold and that box is not yet taken, otherwise a false positive. AP is the area under the
    precision envelope (VOC style). The IoU is the ground-rectangle intersection area (boxes rotated by
    ``yaw`` about z, corners as the devkit builds them) times the height overlap, over the union volume.

    A sample without true boxes has no classes, so its mAP, and the score, is NaN (as v1). v1 computes
    each IoU with shapely in pure Python; here all candidate pairs (those whose ground circles overlap)
    are clipped at once with numpy (Sutherland-Hodgman), so results agree with v1 to float rounding.

    Parameters
    ----------
    y_true, y_pred
        Answers frame and submitted strings (``boxes`` kind), aligned by id; blank = no boxes.
    column
        The prediction-string column.

    Returns
    -------
    float
        In [0, 1]; higher is better.

    Examples
    --------
    >>> t = pd.DataFrame({"PredictionString": ["1 0 0 0 2 4 2 0 car 1 10 0 0 2 4 2 0 bus"]})
    >>> map_3d(t, pd.DataFrame({"PredictionString": ["0.9 0 0 0 2 4 2 0 car"]}))  # car AP 1, bus AP 0
    0.5
    >>> map_3d(t, pd.DataFrame({"PredictionString": ["0.9 0 0 0 2 4 2 1.5707963267948966 car"]}))  # IoU 1/3
    0.0

    """
    y_true, y_pred = tables(y_true, y_pred)
    truth = parse_boxes_or_raise(y_true[column].to_numpy(dtype=object), _LAYOUT, "y_true")
    pred = parse_boxes_or_raise(y_pred[column].to_numpy(dtype=object), _LAYOUT, "y_pred")
    n_rows = truth.count
    classes, codes = np.unique(np.r_[truth.labels, pred.labels], return_inverse=True)
    t_group = truth.owner.astype(np.int64) * len(classes) + codes[: len(truth.labels)]
    p_group = pred.owner.astype(np.int64) * len(classes) + codes[len(truth.labels) :]

    # the true boxes, ordered by (sample, class) and then their order in the string
    t_order = np.argsort(t_group, kind="stable")
    t_group, t_num = t_group[t_order], truth.numbers[t_order]
    groups, n_truth = np.unique(t_group, return_counts=True)
    p_keep = np.isin(p_group, groups)  # predictions of classes absent from the sample are ignored
    p_group, p_num = p_group[p_keep], pred.numbers[p_keep]
    p_index = np.arange(len(p_group))

    best_iou, best_gt = _best_matches(p_group, p_num, t_group, t_num)

    # predictions by (group, confidence descending), stable
    order = np.lexsort((p_index, -p_num[:, 0], p_group))
    g_sorted = p_group[order]
    group_pos = np.searchsorted(groups, g_sorted)
    n_gt_sorted = n_truth[group_pos]
    start = np.r_[True, g_sorted[1:] != g_sorted[:-1]]
    ap_sum = np.zeros((len(THRESHOLDS), n_rows))
    for k, threshold in enumerate(THRESHOLDS):
        valid = best_iou[order] > threshold
        tp = np.zeros(len(order))
        first = np.unique(np.where(valid, best_gt[order], -1), return_index=True)[1]
        tp[first] = 1.0
        tp[~valid] = 0.0
        cum_tp = _group_cumsum(tp, start)
        cum_all = _group_cumsum(np.ones(len(order)), start)
        precision = cum_tp / np.maximum(cum_all, np.finfo(np.float64).eps)
        envelope = _group_reverse_cummax(precision, group_pos)
        ap = np.bincount(group_pos, weights=tp * envelope / n_gt_sorted, minlength=len(groups))
        ap_sum[k] = np.bincount(groups // len(classes), weights=ap, minlength=n_rows)
    n_classes = np.bincount(groups // len(classes), minlength=n_rows)
    with np.errstate(invalid="ignore", divide="ignore"):
        per_sample = ap_sum / n_classes  # 0 / 0 -> NaN for a sample without true boxes, as v1
    return float(np.mean(per_sample))


def _group_cumsum(values: np.ndarray, start: np.ndarray) -> np.ndarray:
    total = np.cumsum(values)
    offset = np.maximum.accumulate(np.where(start, np.arange(len(values)), 0))
    return total - np.r_[0.0, total][offset]


def _group_reverse_cummax(values: np.ndarray, group: np.ndarray) -> np.ndarray:
    """Max of each value and all later ones of its group (values in [0, 1], groups ascending)."""
    keyed = (values - 2.0 * group)[::-1]  # later groups sit lower, so a running max never crosses groups
    return (np.maximum.accumulate(keyed) + 2.0 * group[::-1])[::-1]


def _best_matches(
    p_group: np.ndarray, p_num: np.ndarray, t_group: np.ndarray, t_num: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Each prediction's best IoU with the true boxes of its group, and that box (first maximum)."""
    lo, hi = np.searchsorted(t_group, p_group, "left"), np.searchsorted(t_group, p_group, "right")
    counts = hi - lo
    pi = np.repeat(np.arange(len(p_group)), counts)
    gi = np.repeat(lo - np.cumsum(counts) + counts, counts) + np.arange(counts.sum())
    # ground circles must overlap for the rectangles to
    reach = 0.5 * (np.hypot(p_num[pi, 4], p_num[pi, 5]) + np.hypot(t_num[gi, 4], t_num[gi, 5]))
    near = np.hypot(p_num[pi, 1] - t_num[gi, 1], p_num[pi, 2] - t_num[gi, 2]) <= reach
    pi, gi = pi[near], gi[near]
    iou = np.zeros(len(pi))
    # 25k pairs at a time: clipping holds some 20 arrays of (pairs, 16, 2) floats; at 200k the grader's
    # peak was 120 MB higher (3d-object), and no faster
    for chunk in range(0, len(pi), 25_000):
        part = slice(chunk, chunk + 25_000)
        iou[part] = _iou_3d(p_num[pi[part]], t_num[gi[part]])
    best_iou = np.full(len(p_group), -np.inf)
    best_gt = np.full(len(p_group), -1)
    if len(pi):
        order = np.lexsort((gi, -iou, pi))
        first = np.r_[True, pi[order][1:] != pi[order][:-1]]
        best_iou[pi[order][first]] = iou[order][first]
        best_gt[pi[order][first]] = gi[order][first]
    return best_iou, best_gt


def _corners(num: np.ndarray) -> np.ndarray:
    """Ground rectangle corners ``(n, 4, 2)``, counter-clockwise, built as the devkit's Box3D does."""
    cx, cy, w, length, yaw = num[:, 1], num[:, 2], num[:, 4], num[:, 5], num[:, 7]
    qw, qz = np.cos(yaw / 2), np.sin(yaw / 2)  # the quaternion about z, then its rotation matrix
    norm = qw**2 + qz**2
    c, s = (qw**2 - qz**2) / norm, 2 * qw * qz / norm
    lx, ly, wx, wy = length / 2 * c, length / 2 * s, w / 2 * s, w / 2 * c
    xs = np.stack([cx + lx + wx, cx + lx - wx, cx - lx - wx, cx - lx + wx], axis=1)
    ys = np.stack([cy + ly - wy, cy + ly + wy, cy - ly + wy, cy - ly - wy], axis=1)
    return np.stack([xs, ys], axis=2)


def _iou_3d(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    area = _intersection_area(_corners(a), _corners(b))
    za, zb = a[:, 3], b[:, 3]
    ha, hb = a[:, 6], b[:, 6]
    dz = np.maximum(0, np.minimum(za + ha / 2, zb + hb / 2) - np.maximum(za - ha / 2, zb - hb / 2))
    inter = area * dz
    union = a[:, 4] * a[:, 5] * ha + b[:, 4] * b[:, 5] * hb - inter
    return np.clip(inter / union, 0, 1)


def _intersection_area(subject: np.ndarray, clip: np.ndarray) -> np.ndarray:
    """Area of the intersection of convex quadrilaterals, pairwise, by clipping ``subject`` with ``clip``."""
    m = len(subject)
    poly = np.zeros((m, _K, 2))
    poly[:, :4] = subject
    n = np.full(m, 4)
    rows = np.arange(m)[:, None]
    for e in range(4):
        e0, e1 = clip[:, e], clip[:, (e + 1) % 4]
        edge = e1 - e0
        idx = np.arange(_K)[None, :]
        prev_idx = np.where(idx == 0, n[:, None] - 1, idx - 1)
        cur, prev = poly, poly[rows, prev_idx]
        side_cur = edge[:, None, 0] * (cur[..., 1] - e0[:, None, 1]) - edge[:, None, 1] * (
            cur[..., 0] - e0[:, None, 0]
        )
        side_prev = edge[:, None, 0] * (prev[..., 1] - e0[:, None, 1]) - edge[:, None, 1] * (
            prev[..., 0] - e0[:, None, 0]
        )
        real = idx < n[:, None]
        in_cur, in_prev = side_cur >= 0, side_prev >= 0
        with np.errstate(invalid="ignore", divide="ignore"):
            t = side_prev / (side_prev - side_cur)  # only used where the signs differ, so finite there
            crossing = prev + t[..., None] * (cur - prev)
        out = np.zeros((m, 2 * _K, 2))
        out[:, 0::2] = crossing
        out[:, 1::2] = cur
        keep = np.zeros((m, 2 * _K), dtype=bool)
        keep[:, 0::2] = real & (in_cur != in_prev)
        keep[:, 1::2] = real & in_cur
        out[~keep] = 0.0  # padding stays finite
        order = np.argsort(~keep, axis=1, kind="stable")[:, :_K]
        poly = out[rows, order]
        n = keep.sum(axis=1)
    idx = np.arange(_K)[None, :]
    nxt = poly[rows, np.where(idx + 1 >= n[:, None], 0, idx + 1)]
    cross = poly[..., 0] * nxt[..., 1] - nxt[..., 0] * poly[..., 1]
    return 0.5 * np.abs(np.where(idx < n[:, None], cross, 0.0).sum(axis=1))
