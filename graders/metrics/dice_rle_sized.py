"""Mean per-image Dice over RLE masks whose sizes vary by image (hubmap-kidney-segmentation)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .dice_global_rle import sized_runs
from .dice_rle import _overlap


def dice_rle_sized(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    mask_column: str,
    height_column: str = "height_pixels",
    width_column: str = "width_pixels",
) -> float:
    """Mean over images of ``2 |T & P| / (|T| + |P|)``, an image where both masks are empty scoring 1.

    Each image's size comes from the answers' ``height_column`` and ``width_column`` (v1 decodes each
    mask with its own height and width, column-major); blank and ``-`` cells are empty masks.

    Parameters
    ----------
    y_true
        Answers frame (``rle_table`` kind) with the mask and size columns.
    y_pred
        Frame with ``mask_column`` (RLE strings), aligned with ``y_true`` by id.
    mask_column, height_column, width_column
        Column names.

    Returns
    -------
    float
        In [0, 1]; higher is better.

    Examples
    --------
    >>> t = pd.DataFrame({"m": ["1 2", ""], "height_pixels": ["2", "3"], "width_pixels": ["2", "3"]})
    >>> round(dice_rle_sized(t, pd.DataFrame({"m": ["2 1", ""]}), mask_column="m"), 6)  # (2/3 + 1) / 2
    0.833333

    """
    sizes, true_runs, pred_runs = sized_runs(y_true, y_pred, mask_column, height_column, width_column)
    both = _overlap(true_runs, pred_runs, int(sizes.max()))
    area = np.bincount(true_runs.owner, weights=true_runs.lengths, minlength=len(sizes)) + np.bincount(
        pred_runs.owner, weights=pred_runs.lengths, minlength=len(sizes)
    )
    per_image = np.divide(2 * both, area, out=np.ones(len(sizes)), where=area > 0)
    return float(per_image.mean())
