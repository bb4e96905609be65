"""Golden cases for ``dice_hausdorff`` (expected values from independent v1-style reference code)."""

import pytest

from graders.metrics import dice_hausdorff

from ._golden import check, load, score

CASES = load("dice_hausdorff")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("dice_hausdorff", case)


def test_unknown_variant_is_an_error():
    case = CASES[0]
    if "variant" not in dice_hausdorff.__kwdefaults__:
        pytest.skip("no variants")
    with pytest.raises(ValueError, match="variant"):
        score("dice_hausdorff", {**case, "args": {**case["args"], "variant": "v2"}})
