"""Golden cases and edge cases for ``pearson``."""

import json
import math
from pathlib import Path

import pytest

from graders.metrics.correlation import pearson

GOLDEN = json.loads((Path(__file__).parent / "cases" / "pearson.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = pearson(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)


def test_agrees_with_scipy():
    import numpy as np
    from scipy.stats import pearsonr

    rng = np.random.default_rng(0)
    y_true, y_pred = rng.random(100), rng.random(100)
    assert pearson(y_true, y_pred) == pytest.approx(pearsonr(y_true, y_pred)[0], abs=1e-12)


@pytest.mark.parametrize("seed", range(40))
def test_equals_scipy_bit_for_bit(seed):
    """Written without scipy, the score is scipy's exactly: ties, two rows, constant, tiny and huge values."""
    import warnings

    import numpy as np
    from scipy import stats

    rng = np.random.default_rng(seed)
    n = [2, 3, 10, 1000][seed % 4]
    scale = [1.0, 1e-300, 1e200, 1e6][seed // 4 % 4]
    y_true = rng.integers(0, 5, n) * scale / 4 if seed % 3 else rng.normal(size=n) * scale
    y_pred = rng.normal(size=n) * scale + (y_true if seed % 2 else 0)
    if seed % 10 == 9:
        y_pred[:] = y_pred[0]  # constant: NaN
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = float(stats.pearsonr(y_true, y_pred).statistic)
    ours = pearson(y_true, y_pred)
    assert ours == theirs or (math.isnan(ours) and math.isnan(theirs)), (ours, theirs)


def test_scoring_does_not_import_scipy():
    """us-patent's grading pays neither scipy's import time nor its memory."""
    import subprocess
    import sys

    code = (
        "import sys; from graders.metrics.correlation import pearson; "
        "pearson([1.0, 2.0, 3.0], [2.0, 1.0, 4.0]); print('scipy' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
