"""Golden cases and edge cases for ``spearman_mean_columns``."""

import json
import math
from pathlib import Path

import numpy as np
import pytest

from graders.metrics.correlation import spearman_mean_columns

GOLDEN = json.loads((Path(__file__).parent / "cases" / "spearman_mean_columns.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = spearman_mean_columns(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)


def _scipy_mean(y_true, y_pred):
    import warnings

    from scipy import stats

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", stats.ConstantInputWarning)
        rhos = [stats.spearmanr(y_pred[:, c], y_true[:, c]).statistic for c in range(y_true.shape[1])]
    return float(np.mean(rhos))


@pytest.mark.parametrize("seed", range(40))
def test_equals_scipy_bit_for_bit(seed):
    """Written without scipy, the score is scipy's exactly: ties, NaNs, constant and one-row columns."""
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(1, 400)), int(rng.integers(1, 6))
    levels = int(rng.integers(1, 30))  # few levels: many ties, sometimes a constant column
    y_true = rng.integers(0, levels, size=(n, k)) / max(levels - 1, 1)
    y_pred = np.round(rng.random((n, k)), int(rng.integers(1, 4)))
    if seed % 5 == 0:
        y_pred[rng.integers(0, n), rng.integers(0, k)] = np.nan
    ours, theirs = spearman_mean_columns(y_true, y_pred), _scipy_mean(y_true, y_pred)
    assert (math.isnan(ours) and math.isnan(theirs)) or ours == theirs


def test_scoring_does_not_import_scipy():
    """The point of writing it out: google-quest's grading pays neither scipy's import time nor its memory."""
    import subprocess
    import sys

    code = (
        "import sys; from graders.metrics.correlation import spearman_mean_columns as f; "
        "f([[1, 0], [2, 1], [3, 0]], [[3, 1], [1, 2], [2, 0]]); print('scipy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "False"
