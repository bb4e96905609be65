"""Golden cases for ``mean_angular_error`` (expected values from independent v1-style reference code)."""

import pytest

from ._golden import check, load

CASES = load("mean_angular_error")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("mean_angular_error", case)
