"""Golden cases for ``f_beta_rle`` (expected values from independent v1-style reference code)."""

import pytest

from ._golden import check, load

CASES = load("f_beta_rle")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("f_beta_rle", case)
