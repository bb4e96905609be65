"""Golden cases for ``mean_rmsle_columns`` (expected values from independent v1-style reference code)."""

import pytest

from ._golden import check, load

CASES = load("mean_rmsle_columns")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("mean_rmsle_columns", case)
