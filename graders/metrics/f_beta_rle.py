"""Pixel-level F-beta between run-length encoded masks (vesuvius-challenge-ink-detection, beta 0.5)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._arrays import paired
from .dice_rle import _overlap, _parse


def f_beta_rle(y_true: ArrayLike, y_pred: ArrayLike, *, height: int, width: int, beta: float = 0.5) -> float:
    """Mean over rows of the pixel F-beta score ``(1 + b^2) TP / ((1 + b^2) TP + b^2 FN + FP)``.

    As sklearn's ``fbeta_score`` in v1, a row without any true or predicted pixel scores 0. v1 decodes
    vesuvius's row-major RLE by swapping height and width and transposing; a pixel-wise F score does not
    depend on pixel order, so only ``height * width`` matters here and the counts come straight from the
    runs (a 7606 x 5249 fragment is never painted).

    Parameters
    ----------
    y_true, y_pred
        1-D arrays of RLE strings, aligned by row; blank = empty mask.
    height, width
        Mask size in pixels.
    beta
        Weight of recall relative to precision.

    Returns
    -------
    float
        In [0, 1]; higher is better.

    Examples
    --------
    >>> f_beta_rle(["1 4"], ["3 4"], height=4, width=2)  # TP 2, FP 2, FN 2
    0.5
    >>> round(f_beta_rle(["1 4", ""], ["1 2", ""], height=4, width=2), 6)  # (1.25*2 / (2.5 + 0.25*2)) / 2, 0
    0.416667

    """
    true, pred = paired(y_true, y_pred, dtype=object, ndim=1)
    true_runs, pred_runs = _parse(true, height, width, "y_true"), _parse(pred, height, width, "y_pred")
    tp = _overlap(true_runs, pred_runs, height * width)
    fn, fp = true_runs.pixel_sums() - tp, pred_runs.pixel_sums() - tp
    b2 = beta**2
    denominator = (1 + b2) * tp + b2 * fn + fp
    return float(
        np.mean(np.where(denominator > 0, (1 + b2) * tp / np.where(denominator > 0, denominator, 1), 0.0))
    )
