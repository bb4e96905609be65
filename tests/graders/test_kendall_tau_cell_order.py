"""Golden cases and edge cases for ``kendall_tau_cell_order``."""

import json
import math
from pathlib import Path

import pytest

from graders.metrics.cell_order import kendall_tau_cell_order

GOLDEN = json.loads((Path(__file__).parent / "cases" / "kendall_tau_cell_order.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = kendall_tau_cell_order(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)


def test_a_prediction_that_is_not_a_reordering_is_an_error():
    with pytest.raises(ValueError, match="not a reordering"):
        kendall_tau_cell_order(["a b c"], ["a b"])


def test_long_notebooks_are_counted_in_blocks():
    import numpy as np

    order = [f"c{i}" for i in range(2500)]
    reversed_order = " ".join(order[::-1])
    assert kendall_tau_cell_order([" ".join(order)], [reversed_order]) == -1.0
    assert np.isclose(kendall_tau_cell_order([" ".join(order)], [" ".join(order)]), 1.0)
