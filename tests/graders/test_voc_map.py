"""Golden cases for ``voc_map`` (expected values from independent v1-style reference code)."""

import pytest

from ._golden import check, load

CASES = load("voc_map")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("voc_map", case)
