"""Golden cases for ``laplace_log_likelihood`` (expected values from independent v1-style reference code)."""

import pytest

from ._golden import check, load

CASES = load("laplace_log_likelihood")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("laplace_log_likelihood", case)
