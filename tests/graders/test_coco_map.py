"""Golden cases for ``coco_map`` (expected values from independent v1-style reference code)."""

import pandas as pd
import pytest

from graders.metrics.coco_map import coco_map

from ._golden import check, load, score

CASES = load("coco_map")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("coco_map", case)


def test_unknown_variant_is_an_error():
    case = CASES[0]
    if "variant" not in coco_map.__kwdefaults__:
        pytest.skip("no variants")
    with pytest.raises(ValueError, match="variant"):
        score("coco_map", {**case, "args": {**case["args"], "variant": "v2"}})


def test_perfect_submission_below_one_v1_bug():
    """Spec 9.x: pycocotools ignores a match whose id is 0, and v1 numbers ids from 0."""
    t = pd.DataFrame({"PredictionString": ["0 1 0 0 4 4", "0 1 1 1 5 5"]})
    assert coco_map(t, t) < 1.0
    assert coco_map(t, t, variant="fixed") == 1.0
