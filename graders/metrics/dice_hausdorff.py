"""0.4 x per-slice Dice + 0.6 x (1 - 3-D Hausdorff) (uw-madison-gi-tract-image-segmentation)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._cells import as_text
from .._threads import THREADS
from ..rle import Runs, parse_rles
from ._tables import check_variant, floats, tables
from .dice_rle import _overlap

DICE_WEIGHT, HAUSDORFF_WEIGHT = 0.4, 0.6


def dice_hausdorff(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    mask_column: str = "predicted",
    id_column: str = "id",
    height_column: str = "image_height",
    width_column: str = "image_width",
    variant: str = "v1",
) -> float:
    """``0.4 * nanmean(Dice per row) + 0.6 * (1 - nanmean(Hausdorff per case-day))``, as v1.

    Dice is per row (one slice and class), NaN when both masks are empty. For the Hausdorff term every
    slice's classes are OR-ed together, slices (ids ``caseX_dayY_slice_ZZZZ``, sorted) are stacked into a
    volume per ``caseX_dayY``, and each pair of volumes scores: NaN if both empty, 0 if identical, 1 if
    exactly one is empty or the prediction has over 10x the true voxels, else the symmetric Hausdorff
    distance between voxel coordinates divided by the volume shape, over sqrt(3).

    v1 pairs submission file row ``i`` with answers row ``i`` (no sort or id check) and decodes it with
    that answer row's size; its own id then places it in the volumes (spec section 9.2 item 5). Masks are
    decoded column-major on both sides, as v1. ``variant="fixed"`` pairs rows by id. Voxels are taken
    from the runs directly, so no slice is painted.

    Parameters
    ----------
    y_true
        Answers frame (``rle_table`` kind) with the mask, slice id and size columns.
    y_pred
        Submitted masks, answers' row order, indexed by submission file position.
    mask_column, id_column, height_column, width_column
        Column names.
    variant
        ``"v1"`` (default) or ``"fixed"``.

    Returns
    -------
    float
        Higher is better (1 is perfect).

    Examples
    --------
    >>> t = pd.DataFrame({"id": ["case1_day1_slice_0001", "case1_day1_slice_0002"], "predicted": ["1 2", ""],
    ...                   "image_height": ["2", "2"], "image_width": ["2", "2"]})
    >>> dice_hausdorff(t, pd.DataFrame({"predicted": ["1 2", ""]}))
    1.0
    >>> p = pd.DataFrame({"predicted": ["1 1", "4 1"]})
    >>> round(dice_hausdorff(t, p), 6)  # Dice (2/3 + 0) / 2; Hausdorff sqrt(0.5) / sqrt(3)
    0.488384

    """
    check_variant(variant)
    y_true, y_pred = tables(y_true, y_pred)
    heights, widths = _lengths(y_true, height_column), _lengths(y_true, width_column)
    ids = y_true[id_column].astype(str).to_numpy()
    true_runs = _runs(y_true[mask_column].to_numpy(dtype=object), heights * widths, "y_true")
    if variant == "v1":
        file_order = np.argsort(np.asarray(y_pred.index), kind="stable")
        pred_masks, pred_ids = y_pred[mask_column].to_numpy(dtype=object)[file_order], ids[file_order]
    else:
        pred_masks, pred_ids = y_pred[mask_column].to_numpy(dtype=object), ids
    pred_runs = _runs(pred_masks, heights * widths, "y_pred", clip=True)  # answers row i's size, as v1

    overlap = _overlap(true_runs, pred_runs, int((heights * widths).max()))
    total = true_runs.pixel_sums() + pred_runs.pixel_sums()
    with np.errstate(invalid="ignore", divide="ignore"):
        dice = np.nanmean(np.where(total == 0, np.nan, 2 * overlap / total))

    grid = (int(heights.max()), int(widths.max()))
    true_vox, shapes = _voxels(true_runs, ids, heights, widths, grid)
    pred_vox, _ = _voxels(pred_runs, pred_ids, heights, widths, grid)  # v1: row i uses answers row i's size
    hausdorff = np.nanmean(
        [_hausdorff(t, p, shape, grid) for t, p, shape in zip(true_vox, pred_vox, shapes, strict=True)]
    )
    return float(DICE_WEIGHT * dice + HAUSDORFF_WEIGHT * (1 - hausdorff))


def _lengths(frame: pd.DataFrame, column: str) -> np.ndarray:
    """Return an image-size column as integers (v1's answers write ``266.0``, other tables ``266``)."""
    values = floats(frame, column)
    bad = ~(np.isfinite(values) & (values > 0) & (values == np.round(values)))
    if bad.any():
        row = int(np.flatnonzero(bad)[0])
        value = frame[column].iloc[row]
        raise ValueError(f"y_true row {row}: {column} {value!r} is not a positive whole number")
    return values.astype(np.int64)


def _runs(rles: np.ndarray, sizes: np.ndarray, name: str, *, clip: bool = False) -> Runs:
    """Parse one mask column; ``sizes`` are the pixel counts of each row's image.

    With ``clip``, runs are cut at the image's last pixel (a run starting past it is dropped) instead of
    being an error: v1 paints each run into a flat array with a slice, which silently stops at the end.
    """
    runs = parse_rles(as_text(np.where(pd.isna(rles), "", rles)))
    problems = dict(runs.problems)
    if clip and not problems:
        runs = runs.clipped(sizes)
    past = np.flatnonzero(runs.starts + runs.lengths > sizes[runs.owner])
    if past.size:
        problems.setdefault(int(runs.owner[past[0]]), "a run goes past the last pixel")
    if problems:
        row, problem = min(problems.items())
        raise ValueError(f"{name} row {row}: malformed RLE {rles[row]!r}: {problem}")
    return runs


def _voxels(
    runs: Runs, ids: np.ndarray, heights: np.ndarray, widths: np.ndarray, grid: tuple[int, int]
) -> tuple[list[np.ndarray], np.ndarray]:
    """Return the sorted voxel keys of each case-day (OR of the classes), and each volume's shape.

    Keys are ``(slice * grid_h + row) * grid_w + column``; shapes are ``(slices, height, width)``.
    Case-days are sorted by name and slices ranked by id within their day, as v1 stacks them.
    """
    slices, slice_code = np.unique(ids, return_inverse=True)
    days, day_of_slice = np.unique([s.split("_slice_")[0] for s in slices], return_inverse=True)
    first_slice = np.searchsorted(day_of_slice, np.arange(len(days)))  # slices sorted -> days contiguous
    rank_in_day = np.arange(len(slices)) - first_slice[day_of_slice]
    n_slices = np.bincount(day_of_slice, minlength=len(days))
    grid_h, grid_w = grid
    per_day = int(n_slices.max()) * grid_h * grid_w
    # per run what its pixels share (the slice's place in the volumes, the image height), then per pixel
    # only its offset: few full-size arrays, as page faults on fresh ones cost more than the arithmetic
    lengths = runs.lengths.astype(np.int64)
    code = slice_code[runs.owner]
    base = day_of_slice[code] * per_day + rank_in_day[code] * (grid_h * grid_w)
    # a pixel's place in its image, and its row and column, are int32 while they fit: half the fresh pages
    small = np.int32 if int(lengths.sum()) + int(grid_h) * int(grid_w) < 2**31 else np.int64
    pixel = np.repeat((runs.starts - np.cumsum(lengths) + lengths).astype(small), lengths)
    pixel += np.arange(len(pixel), dtype=small)
    column, row = np.divmod(pixel, np.repeat(heights[runs.owner].astype(small), lengths))
    row *= grid_w
    row += column
    key = np.repeat(base, lengths)
    key += row
    del pixel, column, row
    key.sort()
    key = key[np.r_[True, key[1:] != key[:-1]]] if key.size else key  # np.unique hashes: slower here
    bounds = np.searchsorted(key, np.arange(len(days) + 1) * per_day)
    row_of_slice = np.zeros(len(slices), dtype=np.intp)
    row_of_slice[slice_code] = np.arange(len(ids))
    first_row = row_of_slice[first_slice]  # a row of each day's first slice gives the slice size
    shapes = np.column_stack([n_slices, heights[first_row], widths[first_row]])
    return [key[bounds[d] : bounds[d + 1]] - d * per_day for d in range(len(days))], shapes


def _hausdorff(true: np.ndarray, pred: np.ndarray, shape: np.ndarray, grid: tuple[int, int]) -> float:
    if len(true) == 0 and len(pred) == 0:
        return np.nan
    if len(true) == len(pred) and np.array_equal(true, pred):
        return 0.0
    if len(true) == 0 or len(pred) == 0 or len(pred) > 10 * len(true):
        return 1.0
    return max(_directed(true, pred, shape, grid), _directed(pred, true, shape, grid)) / np.sqrt(3)


def _directed(a: np.ndarray, b: np.ndarray, shape: np.ndarray, grid: tuple[int, int]) -> float:
    """Scipy's ``directed_hausdorff(A / shape, B / shape)`` for voxel keys: max over A of the distance to B.

    Exact, but fast: voxels of A inside B are at distance 0, and the voxel of B nearest to any other
    point is on B's surface (it has a 6-neighbour outside B), so only those go into a k-d tree.
    (scipy's early-break loop is quadratic on large, similar volumes: seconds per case-day.)
    """
    from scipy.spatial import cKDTree  # slow to import: only its competitions pay

    grid_h, grid_w = grid
    # dense membership (~10 MB a volume) with a slice's margin each side, so that the neighbours of every
    # voxel are views of it shifted by a step: no index arrays, and none clipped onto a voxel of B
    margin, size = grid_h * grid_w, int(max(a.max(), b.max())) + 1
    padded = np.zeros(size + 2 * margin, dtype=bool)
    in_b = padded[margin : margin + size]
    in_b[b] = True
    outside = a[~in_b[a]]
    if len(outside) == 0:
        return 0.0
    coords = _coords(b, grid)
    inner = np.ones(len(b), dtype=bool)
    for axis, step in ((0, grid_h * grid_w), (1, grid_w), (2, 1)):
        place = coords[:, axis]
        for sign in (-1, 1):
            inner &= place >= 1 if sign < 0 else place < shape[axis] - 1  # the neighbour is in the volume
            inner &= padded[margin + sign * step : margin + sign * step + size][b]
    scale = shape.astype(np.float64)
    tree = cKDTree(coords[~inner] / scale)
    return float(tree.query(_coords(outside, grid) / scale, k=1, workers=THREADS)[0].max())


def _coords(keys: np.ndarray, grid: tuple[int, int]) -> np.ndarray:
    grid_h, grid_w = grid
    depth, rest = np.divmod(keys, grid_h * grid_w)
    return np.column_stack([depth, *np.divmod(rest, grid_w)])
