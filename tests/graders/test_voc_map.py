"""Golden cases for ``voc_map`` (expected values from independent v1-style reference code)."""

import pytest

from ._golden import check, load

CASES = load("voc_map")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("voc_map", case)


@pytest.mark.parametrize("seed", range(40))
def test_average_precision_equals_sklearn_bit_for_bit(seed):
    """Written without sklearn, each class's AP is sklearn's exactly: ties, zeros, no positive at all."""
    import warnings

    import numpy as np
    from sklearn.metrics import average_precision_score

    from graders.metrics.voc_map import _average_precision

    rng = np.random.default_rng(seed)
    n = [1, 2, 5, 40, 3000][seed % 5]
    y = (rng.random(n) < [0.0, 0.1, 0.5, 0.9][seed // 5 % 4]).astype(int)
    score = rng.integers(0, 4, n) / 4 if seed % 2 else rng.random(n)
    score[rng.random(n) < 0.2] = 0.0  # v1's (1, 0) and (0, 0) pairs
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = average_precision_score(y, score)
    assert _average_precision(y, score) == theirs


def test_scoring_does_not_import_sklearn():
    """siim-covid19's grading pays neither sklearn's import time nor its memory."""
    import subprocess
    import sys

    code = (
        "import sys, pandas as pd; from graders.metrics.voc_map import voc_map; "
        "t = pd.DataFrame({'PredictionString': ['a 1 0 0 10 10', 'b 1 0 0 1 1']}); "
        "p = pd.DataFrame({'PredictionString': ['a 0.9 0 0 10 8', 'a 0.7 0 0 1 1']}); "
        "voc_map(t, p); print('sklearn' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"
