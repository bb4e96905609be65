"""Golden cases for ``dice_global_rle`` (expected values from independent v1-style reference code)."""

import pandas as pd
import pytest

from graders.metrics import dice_global_rle

from ._golden import check, load

CASES = load("dice_global_rle")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("dice_global_rle", case)


def test_dash_and_blank_are_empty():
    t = pd.DataFrame({"encoded_pixels": ["1 2", "-"], "height": ["2", "2"], "width": ["2", "2"]})
    assert dice_global_rle(t, pd.DataFrame({"encoded_pixels": ["1 2", ""]})) == 1.0
