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
