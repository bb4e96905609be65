"""Golden cases for ``coco_map`` (expected values from independent v1-style reference code)."""

import pandas as pd
import pytest

from graders.metrics.coco_map import coco_map, coco_map_fixed

from ._golden import check, load

CASES = load("coco_map")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("coco_map", case)


def test_perfect_submission_below_one_v1_bug():
    """Spec 9.x: pycocotools ignores a match whose id is 0, and v1 numbers ids from 0."""
    t = pd.DataFrame({"PredictionString": ["0 1 0 0 4 4", "0 1 1 1 5 5"]})
    assert coco_map(t, t) < 1.0
    assert coco_map_fixed(t, t) == 1.0
