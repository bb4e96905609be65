"""Golden cases for ``dice_global_rle`` (expected values from independent v1-style reference code)."""

import pandas as pd
import pytest

from graders.metrics.dice_global_rle import dice_global_rle

from ._golden import check, load

CASES = load("dice_global_rle")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("dice_global_rle", case)


def test_dash_and_blank_are_empty():
    t = pd.DataFrame({"encoded_pixels": ["1 2", "-"], "height": ["2", "2"], "width": ["2", "2"]})
    assert dice_global_rle(t, pd.DataFrame({"encoded_pixels": ["1 2", ""]})) == 1.0


def test_a_run_past_the_last_pixel_is_cut_there_as_in_v1():
    # v1 slices each image's flat pixel array, so "2 10" on a 2x2 image covers pixels 2-4 and "9 3" covers
    # nothing; value from v1's grading logic: 2 * 1 / (4 + 3).
    t = pd.DataFrame({"encoded_pixels": ["1 2", "3 2"], "height": ["2", "2"], "width": ["2", "2"]})
    got = dice_global_rle(t, pd.DataFrame({"encoded_pixels": ["2 10", "9 3"]}))
    assert got == pytest.approx(0.2857142857142857, abs=1e-12)
