"""0.4 x per-slice Dice + 0.6 x (1 - 3-D Hausdorff) (uw-madison-gi-tract-image-segmentation)."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np
import pandas as pd

from .._cells import as_text
from .._threads import THREADS
from ..rle import Runs, parse_rles
from ._tables import floats, tables
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
) -> float:
    """``0.4 * nanmean(Dice per row) + 0.6 * (1 - nanmean(Hausdorff per case-day))``, as v1.

    Dice is per row (one slice and class), NaN when both masks are empty. For the Hausdorff term every
    slice's classes are OR-ed together, slices (ids ``caseX_dayY_slice_ZZZZ``, sorted) are stacked into a
    volume per ``caseX_dayY``, and each pair of volumes scores: NaN if both empty, 0 if identical, 1 if
    exactly one is empty or the prediction has over 10x the true voxels, else the symmetric Hausdorff
    distance between voxel coordinates divided by the volume shape, over sqrt(3).

    v1 pairs submission file row ``i`` with answers row ``i`` (no sort or id check) and decodes it with
    that answer row's size; its own id then places it in the volumes (spec section 9.2 item 5). Masks are
    decoded column-major on both sides, as v1. :func:`dice_hausdorff_fixed` pairs rows by id. Voxels are taken
    from the runs directly, so no slice is painted.

    Parameters
    ----------
    y_true
        Answers frame (``rle_table`` kind) with the mask, slice id and size columns.
    y_pred
        Submitted masks, answers' row order, indexed by submission file position.
    mask_column, id_column, height_column, width_column
        Column names.

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
    return _dice_hausdorff(
        y_true,
        y_pred,
        mask_column=mask_column,
        id_column=id_column,
        height_column=height_column,
        width_column=width_column,
        v1=True,
    )


def dice_hausdorff_fixed(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    mask_column: str = "predicted",
    id_column: str = "id",
    height_column: str = "image_height",
    width_column: str = "image_width",
) -> float:
    """Like :func:`dice_hausdorff`, with v1's departure from the metric's definition corrected.

    Rows are paired by id, not by submission file position.
    """
    return _dice_hausdorff(
        y_true,
        y_pred,
        mask_column=mask_column,
        id_column=id_column,
        height_column=height_column,
        width_column=width_column,
        v1=False,
    )


def _dice_hausdorff(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    mask_column: str = "predicted",
    id_column: str = "id",
    height_column: str = "image_height",
    width_column: str = "image_width",
    v1: bool,
) -> float:
    """Score :func:`dice_hausdorff` (``v1``: MLE-bench v1's way) or :func:`dice_hausdorff_fixed`."""
    y_true, y_pred = tables(y_true, y_pred)
    heights, widths = _lengths(y_true, height_column), _lengths(y_true, width_column)
    ids = y_true[id_column].astype(str).to_numpy()
    true_runs = _runs(y_true[mask_column].to_numpy(dtype=object), heights * widths, "y_true")
    slice_of_row, day_of_slice, rank_in_day, shapes = _stacking(ids, heights, widths)
    pred_masks, pred_slices = y_pred[mask_column].to_numpy(dtype=object), slice_of_row
    if v1:  # submission file row i, with answers row i's size and its own id's slice
        file_order = np.argsort(np.asarray(y_pred.index), kind="stable")
        pred_masks, pred_slices = pred_masks[file_order], slice_of_row[file_order]
    pred_runs = _runs(pred_masks, heights * widths, "y_pred", clip=True)

    overlap = _overlap(true_runs, pred_runs, int((heights * widths).max()))
    total = true_runs.pixel_sums() + pred_runs.pixel_sums()
    with np.errstate(invalid="ignore", divide="ignore"):
        dice = np.nanmean(np.where(total == 0, np.nan, 2 * overlap / total))

    grid = (int(heights.max()), int(widths.max()))
    stacking = day_of_slice, rank_in_day, grid
    volumes = zip(
        _volume_keys(true_runs, slice_of_row, heights, *stacking),
        _volume_keys(pred_runs, pred_slices, heights, *stacking),
        shapes,
        strict=True,
    )
    # one membership array for every volume, with a slice's margin each side (see _directed), cleared after
    # each use: ~10 MB of fresh pages per volume and direction cost more to fault in than the search itself
    scratch = np.zeros((int(shapes[:, 0].max(initial=0)) + 2) * grid[0] * grid[1], dtype=bool)
    hausdorff = np.nanmean([_hausdorff(t, p, shape, grid, scratch) for t, p, shape in volumes])
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


def _stacking(
    ids: np.ndarray, heights: np.ndarray, widths: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Stack slices into case-day volumes as v1 does: case-days sorted by name, slices by id within them.

    Returns each row's slice, each slice's case-day and rank in it, and each case-day's shape
    ``(slices, height, width)`` (the size of its first slice).
    """
    slices, slice_of_row = np.unique(ids, return_inverse=True)
    days, day_of_slice = np.unique([s.split("_slice_")[0] for s in slices], return_inverse=True)
    first_slice = np.searchsorted(day_of_slice, np.arange(len(days)))  # slices sorted -> days contiguous
    rank_in_day = np.arange(len(slices)) - first_slice[day_of_slice]
    row_of_slice = np.zeros(len(slices), dtype=np.intp)
    row_of_slice[slice_of_row] = np.arange(len(ids))
    first_row = row_of_slice[first_slice]
    n_slices = np.bincount(day_of_slice, minlength=len(days))
    return (
        slice_of_row,
        day_of_slice,
        rank_in_day,
        np.column_stack([n_slices, heights[first_row], widths[first_row]]),
    )


def _volume_keys(
    runs: Runs,
    slice_of_row: np.ndarray,
    heights: np.ndarray,
    day_of_slice: np.ndarray,
    rank_in_day: np.ndarray,
    grid: tuple[int, int],
) -> Iterator[np.ndarray]:
    """Yield each case-day's voxel keys (the OR of its classes), sorted, one day at a time.

    A key is ``(slice rank * grid_h + row) * grid_w + column``. Row ``i``'s runs are decoded with
    ``heights[i]`` and placed in the slice ``slice_of_row[i]``. A day at a time, the pixels' arrays are a
    day's size, int32 while they fit: the file's pixels at once were fresh pages to fault in, 14M of them.
    """
    grid_h, grid_w = grid
    run_slice = slice_of_row[runs.owner]
    run_day = day_of_slice[run_slice]
    order = np.argsort(run_day, kind="stable")
    bounds = np.searchsorted(run_day[order], np.arange(int(day_of_slice.max(initial=-1)) + 2))
    volume = (int(rank_in_day.max(initial=0)) + 1) * grid_h * grid_w  # the keys' range
    for day in range(len(bounds) - 1):
        mine = order[bounds[day] : bounds[day + 1]]
        lengths = runs.lengths[mine]
        fits = int(lengths.sum()) + volume < 2**31
        lengths = lengths.astype(np.int32 if fits else np.int64)
        # a pixel's place in its image: the run's start, plus its place in the run
        pixel = np.repeat(runs.starts[mine].astype(lengths.dtype) - np.cumsum(lengths) + lengths, lengths)
        pixel += np.arange(len(pixel), dtype=lengths.dtype)
        column, row = np.divmod(pixel, np.repeat(heights[runs.owner[mine]].astype(lengths.dtype), lengths))
        key = np.repeat((rank_in_day[run_slice[mine]] * (grid_h * grid_w)).astype(lengths.dtype), lengths)
        row *= grid_w
        key += row
        key += column
        key.sort()
        yield key[np.r_[True, key[1:] != key[:-1]]] if key.size else key  # np.unique hashes: slower here


def _hausdorff(
    true: np.ndarray, pred: np.ndarray, shape: np.ndarray, grid: tuple[int, int], scratch: np.ndarray
) -> float:
    if len(true) == 0 and len(pred) == 0:
        return np.nan
    if len(true) == len(pred) and np.array_equal(true, pred):
        return 0.0
    if len(true) == 0 or len(pred) == 0 or len(pred) > 10 * len(true):
        return 1.0
    return max(
        _directed(true, pred, shape, grid, scratch), _directed(pred, true, shape, grid, scratch)
    ) / np.sqrt(3)


def _directed(
    a: np.ndarray, b: np.ndarray, shape: np.ndarray, grid: tuple[int, int], scratch: np.ndarray
) -> float:
    """Scipy's ``directed_hausdorff(A / shape, B / shape)`` for voxel keys: max over A of the distance to B.

    Exact, but fast: voxels of A inside B are at distance 0, and the voxel of B nearest to a voxel p outside
    B has a neighbour outside B in the direction of p (else that neighbour, in B, would be nearer), so
    only B's voxels with one of their six neighbours outside B go into a k-d tree. Neighbours are found by
    key arithmetic: a step past the grid's edge wraps onto another voxel, which can only hide a direction
    no voxel lies in. (scipy's early-break loop is quadratic on large, similar volumes: seconds per
    case-day.)

    ``scratch``: an all-False bool array at least the keys' range plus two slices long, left all-False.
    """
    from scipy.spatial import cKDTree  # slow to import: only its competitions pay

    grid_h, grid_w = grid
    # membership with a slice's margin each side, so that the neighbours of every voxel are views of it
    # shifted by a step: no index arrays, and none out of bounds
    margin, size = grid_h * grid_w, int(max(a.max(), b.max())) + 1
    padded = scratch[: size + 2 * margin]
    in_b = padded[margin : margin + size]
    in_b[b] = True
    try:
        outside = a[~in_b[a]]
        if len(outside) == 0:
            return 0.0
        inner = np.ones(len(b), dtype=bool)
        for step in (grid_h * grid_w, grid_w, 1):
            for sign in (-1, 1):
                inner &= padded[margin + sign * step : margin + sign * step + size][b]
    finally:
        in_b[b] = False
    scale = shape.astype(np.float64)
    # built by midpoint splits, not medians: half the building time, queries as fast (and as exact)
    tree = cKDTree(_coords(b[~inner], grid) / scale, balanced_tree=False, compact_nodes=False)
    return float(tree.query(_coords(outside, grid) / scale, k=1, workers=THREADS)[0].max())


def _coords(keys: np.ndarray, grid: tuple[int, int]) -> np.ndarray:
    grid_h, grid_w = grid
    depth, rest = np.divmod(keys, grid_h * grid_w)
    return np.column_stack([depth, *np.divmod(rest, grid_w)])
