"""Dice over all pixels of all images at once (google-research-identify-contrails-reduce-global-warming)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..rle import Runs, parse_rles
from ._tables import tables
from .dice_rle import _overlap


def dice_global_rle(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    mask_column: str = "encoded_pixels",
    height_column: str = "height",
    width_column: str = "width",
) -> float:
    """Global Dice ``2 sum|T & P| / (sum|T| + sum|P|)`` over the pixels of every image together.

    Each row's mask size comes from the answers' ``height_column`` and ``width_column``; ``-`` and blank
    cells are empty masks. As in v1, if every mask on both sides is empty the score is NaN.

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

    Raises
    ------
    ValueError
        If a mask is malformed (validation rejects such submissions first). A run reaching past the last
        pixel of its image is cut there, as v1's decoder does, not an error.

    Examples
    --------
    >>> t = pd.DataFrame({"encoded_pixels": ["1 2", "-"], "height": ["2", "3"], "width": ["2", "3"]})
    >>> dice_global_rle(t, pd.DataFrame({"encoded_pixels": ["2 1", "1 1"]}))  # 2 * 1 / (2 + 2)
    0.5

    """
    sizes, true_runs, pred_runs = sized_runs(y_true, y_pred, mask_column, height_column, width_column)
    total = true_runs.lengths.sum() + pred_runs.lengths.sum()
    if total == 0:
        return float("nan")
    return float(2 * _overlap(true_runs, pred_runs, int(sizes.max())).sum() / total)


def sized_runs(
    y_true: pd.DataFrame, y_pred: pd.DataFrame, mask_column: str, height_column: str, width_column: str
) -> tuple[np.ndarray, Runs, Runs]:
    """Per-row image sizes (from the answers) and both sides' runs, each cut at the end of its image."""
    y_true, y_pred = tables(y_true, y_pred)
    sizes = y_true[height_column].astype(int).to_numpy() * y_true[width_column].astype(int).to_numpy()
    true_runs = _runs(y_true[mask_column].to_numpy(dtype=object), sizes, "y_true")
    pred_runs = _runs(y_pred[mask_column].to_numpy(dtype=object), sizes, "y_pred")
    return sizes, true_runs, pred_runs


def _runs(rles: np.ndarray, sizes: np.ndarray, name: str) -> Runs:
    """Parse RLEs whose image sizes vary by row; a run reaching past its own image's last pixel is cut there.

    MLE-bench v1 decodes each mask by slicing a flat array of the image's pixels, so the part of a run
    beyond the last pixel is silently dropped and a run starting past it adds nothing; the score is
    computed on what remains. Structural problems (order, overlap, non-numbers) are still errors:
    validation rejects them first, as v1's decoder asserts on them.
    """
    runs = parse_rles(np.where(rles == "-", "", rles))
    if runs.problems:
        row, problem = next(iter(runs.problems.items()))
        raise ValueError(f"{name} row {row}: malformed RLE {rles[row]!r}: {problem}")
    return runs.clipped(sizes)
