"""Golden cases and edge cases for ``levenshtein_mean``."""

import json
import math
from pathlib import Path

import pytest

from graders.metrics.edit_distance import levenshtein_mean

GOLDEN = json.loads((Path(__file__).parent / "cases" / "levenshtein_mean.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = levenshtein_mean(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)


def _reference(a, b):
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        previous, row = row, [i] + [0] * len(b)
        for j, y in enumerate(b, 1):
            row[j] = min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (x != y))
    return row[-1]


@pytest.mark.parametrize("seed", range(3))
def test_bit_parallel_distance_agrees_with_the_textbook_recurrence(seed):
    import random

    from graders.metrics.edit_distance import levenshtein

    rng = random.Random(seed)
    for _ in range(200):
        a = "".join(rng.choice("abc") for _ in range(rng.randint(0, 90)))  # past 64 bits too
        b = "".join(rng.choice("abc") for _ in range(rng.randint(0, 90)))
        assert levenshtein(a, b) == _reference(a, b)


@pytest.mark.parametrize("rows", [1, 3, 64, 1 << 16])
def test_slices_of_rows_give_the_whole_mean_exactly(rows):
    """Arrow-backed string arrays, converted a slice at a time, score as one list of str does (np.mean)."""
    import numpy as np
    import pandas as pd
    from rapidfuzz.distance import Levenshtein

    rng = np.random.default_rng(rows)
    words = ["".join(rng.choice(list("ab c"), rng.integers(0, 12))) for _ in range(400)]
    true, pred = words[:200], words[200:]
    expected = float(np.mean([Levenshtein.distance(t, p) for t, p in zip(true, pred, strict=True)]))
    arrow = pd.array(true, dtype="str"), pd.array(pred, dtype="str")
    assert levenshtein_mean(*arrow, rows=rows) == expected
    assert levenshtein_mean(true, pred, rows=rows) == expected


def test_no_rows_and_unequal_lengths_are_errors():
    with pytest.raises(ValueError, match="zero rows"):
        levenshtein_mean([], [])
    with pytest.raises(ValueError, match="same shape"):
        levenshtein_mean(["a"], ["a", "b"], rows=1)
