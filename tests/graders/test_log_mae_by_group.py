"""Golden cases for ``log_mae_by_group`` (expected values from independent v1-style reference code)."""

import numpy as np
import pandas as pd
import pytest

from graders.metrics.log_mae_by_group import log_mae_by_group, log_mae_by_group_fixed

from ._golden import check, load

CASES = load("log_mae_by_group")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("log_mae_by_group", case)


def test_exact_group_gives_minus_inf_v1_bug():
    """Spec 9.2 item 14: v1 has no floor on the MAE inside the log."""
    t = pd.DataFrame({"type": ["a", "b"], "scalar_coupling_constant": ["1", "2"]})
    p = pd.DataFrame({"scalar_coupling_constant": [1.0, 3.0]})
    assert log_mae_by_group(t, p) == float("-inf")
    assert np.isfinite(log_mae_by_group_fixed(t, p))
