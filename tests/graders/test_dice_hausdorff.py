"""Golden cases for ``dice_hausdorff`` (expected values from independent v1-style reference code)."""

import pandas as pd
import pytest

from graders.metrics.dice_hausdorff import dice_hausdorff

from ._golden import check, load

CASES = load("dice_hausdorff")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("dice_hausdorff", case)


def _slices_40x30(predicted: list[str]) -> tuple:
    """Two slices of one case-day, three classes each, 40 x 30 images (answers' row order = file order)."""
    ids = [f"case1_day1_slice_000{s}" for s in (1, 2) for _ in range(3)]
    y_true = pd.DataFrame(
        {
            "id": ids,
            "class": ["large_bowel", "small_bowel", "stomach"] * 2,
            "predicted": ["1 20", "", "300 40", "", "", "50 10"],
            "image_width": ["30"] * 6,
            "image_height": ["40"] * 6,
        }
    )
    return y_true, pd.DataFrame({"predicted": predicted}, index=range(6))


@pytest.mark.parametrize(
    ("run", "want"),
    [
        ("1190 40", 0.6126325482232312),  # runs 29 pixels past the last one (1200): v1 keeps pixels 1190-1200
        ("1500 40", 0.6755297175089139),  # starts past the last pixel: v1 paints nothing
    ],
)
def test_a_run_past_the_last_pixel_is_cut_there_as_v1(run, want):
    # v1 paints runs with a slice of a flat array, which stops silently at the end (values from v1's code).
    y_true, y_pred = _slices_40x30(["1 20", "", run, "", "", "50 10"])
    assert abs(dice_hausdorff(y_true, y_pred) - want) <= 1e-12


def test_image_sizes_written_as_floats_score_the_same_and_others_are_refused():
    # v1's private test.csv writes the sizes as 30.0 and 40.0 (a column pandas filled cell by cell).
    y_true, y_pred = _slices_40x30(["1 20", "", "300 40", "", "", "40 10"])
    as_floats = y_true.assign(image_width="30.0", image_height="40.0")
    assert dice_hausdorff(as_floats, y_pred) == dice_hausdorff(y_true, y_pred)
    with pytest.raises(ValueError, match="image_width '30.5' is not a positive whole number"):
        dice_hausdorff(y_true.assign(image_width="30.5"), y_pred)


@pytest.mark.parametrize("seed", range(60))
def test_the_surface_search_gives_scipys_directed_hausdorff(seed):
    """Voxels of A inside B, and B's voxels with all six neighbours in B, are skipped, at any edge.

    At the volume's edges and the grid's: a slice smaller than the grid, or a voxel past the volume's shape.
    """
    import numpy as np
    from scipy.spatial.distance import directed_hausdorff

    from graders.metrics.dice_hausdorff import _coords, _directed

    rng = np.random.default_rng(seed)
    grid = int(rng.integers(2, 10)), int(rng.integers(2, 10))
    shape = np.array(
        [int(rng.integers(1, 6)), int(rng.integers(1, grid[0] + 1)), int(rng.integers(1, grid[1] + 1))]
    )
    volume = np.zeros((shape[0], *grid), dtype=bool)

    def voxels():
        inside = volume.copy()
        rows, columns = (
            (shape[1], shape[2]) if rng.random() < 0.7 else grid
        )  # some slices larger than the first
        inside[:, :rows, :columns] = rng.random((shape[0], rows, columns)) < rng.uniform(0.2, 0.9)
        return np.flatnonzero(inside.reshape(-1))

    a, b = voxels(), voxels()
    if not len(a) or not len(b):
        return
    scale = shape.astype(np.float64)
    expected = directed_hausdorff(_coords(a, grid) / scale, _coords(b, grid) / scale)[0]
    scratch = np.zeros((shape[0] + 2) * grid[0] * grid[1], dtype=bool)
    assert _directed(a, b, shape, grid, scratch) == pytest.approx(expected, rel=1e-15, abs=0)
    assert not scratch.any()  # left clear for the next volume
