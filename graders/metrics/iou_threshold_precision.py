"""Mean over images of the precision at IoU thresholds 0.50:0.05:0.95 (tgs-salt-identification-challenge)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._arrays import paired
from .dice_rle import _overlap, _parse

THRESHOLDS = np.arange(0.5, 1, 0.05)
"""v1's thresholds, built the same way (so 0.6000000000000001 and friends compare identically)."""


def iou_threshold_precision(y_true: ArrayLike, y_pred: ArrayLike, *, height: int, width: int) -> float:
    """Mean over images of the fraction of thresholds ``t`` in 0.50, 0.55, ..., 0.95 with ``IoU > t``.

    Each whole mask is one object. Both masks empty scores 1; an empty truth with a non-empty prediction
    scores 0. v1 computes the IoU from a two-bin ``histogram2d``, which puts an all-empty prediction in
    the *foreground* bin, so an empty prediction on a non-empty truth gets ``IoU = |T| / (height*width)``
    (spec section 9.2 item 3); :func:`iou_threshold_precision_fixed` gives it IoU 0. The overlap is computed
    from the runs (see :mod:`graders.rle`), never by painting masks.

    Parameters
    ----------
    y_true, y_pred
        1-D arrays of RLE strings (column-major, 1-based), aligned by row; blank = empty mask.
    height, width
        Mask size in pixels (101 x 101 for tgs-salt).

    Returns
    -------
    float
        In [0, 1]; higher is better.

    Examples
    --------
    >>> t, p = ["1 6", "", "1 3", "1 7"], ["1 4", "", "4 1", ""]
    >>> iou_threshold_precision(t, p, height=3, width=3)  # IoU 4/6, both empty, IoU 0, v1: IoU 7/9
    0.5

    """
    return _iou_threshold_precision(y_true, y_pred, height=height, width=width, v1=True)


def iou_threshold_precision_fixed(y_true: ArrayLike, y_pred: ArrayLike, *, height: int, width: int) -> float:
    """Like :func:`iou_threshold_precision`, with v1's departure from the metric's definition corrected.

    An empty prediction on a non-empty truth has IoU 0 (not v1's histogram artefact).

    Examples
    --------
    >>> t, p = ["1 6", "", "1 3", "1 7"], ["1 4", "", "4 1", ""]
    >>> iou_threshold_precision_fixed(t, p, height=3, width=3)
    0.35

    """
    return _iou_threshold_precision(y_true, y_pred, height=height, width=width, v1=False)


def _iou_threshold_precision(
    y_true: ArrayLike, y_pred: ArrayLike, *, height: int, width: int, v1: bool
) -> float:
    """Score :func:`iou_threshold_precision` (``v1``: v1's way) or :func:`iou_threshold_precision_fixed`."""
    true, pred = paired(y_true, y_pred, dtype=object, ndim=1)
    true_runs, pred_runs = _parse(true, height, width, "y_true"), _parse(pred, height, width, "y_pred")
    inter = _overlap(true_runs, pred_runs, height * width)
    area_true, area_pred = true_runs.pixel_sums(), pred_runs.pixel_sums()
    union = area_true + area_pred - inter
    if v1:  # the histogram artefact: an empty prediction counts as covering every pixel
        empty_pred = area_pred == 0
        inter = np.where(empty_pred, area_true, inter)
        union = np.where(empty_pred, height * width, union)
    iou = inter / np.where(union == 0, 1e-9, union)
    score = (iou[:, None] > THRESHOLDS[None, :]).mean(axis=1)
    score = np.where(area_true == 0, np.where(area_pred == 0, 1.0, 0.0), score)
    return float(score.mean())
