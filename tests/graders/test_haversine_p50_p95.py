"""Golden cases for ``haversine_p50_p95`` (expected values from independent v1-style reference code)."""

import pytest

from graders.metrics.haversine_p50_p95 import haversine_p50_p95

from ._golden import check, load, score

CASES = load("haversine_p50_p95")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("haversine_p50_p95", case)


def test_unknown_variant_is_an_error():
    case = CASES[0]
    if "variant" not in haversine_p50_p95.__kwdefaults__:
        pytest.skip("no variants")
    with pytest.raises(ValueError, match="variant"):
        score("haversine_p50_p95", {**case, "args": {**case["args"], "variant": "v2"}})
