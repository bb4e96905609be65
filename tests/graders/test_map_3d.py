"""Golden cases for ``map_3d`` (expected values from independent v1-style reference code)."""

import pandas as pd
import pytest

from graders.metrics.map_3d import map_3d

from ._golden import check, load

CASES = load("map_3d")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("map_3d", case)


def test_non_positive_size_is_an_error():
    t = pd.DataFrame({"PredictionString": ["1 0 0 0 2 4 2 0 car"]})
    with pytest.raises(ValueError, match="not > 0"):
        map_3d(t, pd.DataFrame({"PredictionString": ["1 0 0 0 0 4 2 0 car"]}))
