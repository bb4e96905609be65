"""Golden cases for ``mean_rmsle_columns`` (expected values from independent v1-style reference code)."""

import pytest

from graders.metrics.mean_rmsle_columns import mean_rmsle_columns

from ._golden import check, load, score

CASES = load("mean_rmsle_columns")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("mean_rmsle_columns", case)


def test_unknown_variant_is_an_error():
    case = CASES[0]
    if "variant" not in mean_rmsle_columns.__kwdefaults__:
        pytest.skip("no variants")
    with pytest.raises(ValueError, match="variant"):
        score("mean_rmsle_columns", {**case, "args": {**case["args"], "variant": "v2"}})
