"""Golden cases and edge cases for ``accuracy``."""

import json
from pathlib import Path

import numpy as np
import pytest
from sklearn.metrics import accuracy_score

from graders.metrics.accuracy import accuracy

CASES = json.loads((Path(__file__).parent / "cases" / "accuracy.json").read_text())["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    assert accuracy(case["y_true"], case["y_pred"]) == pytest.approx(case["expected"], abs=1e-12)


def test_agrees_with_scikit_learn_on_random_labels():
    rng = np.random.default_rng(0)
    y_true, y_pred = rng.choice(["a", "b", "c"], 200), rng.choice(["a", "b", "c"], 200)
    assert accuracy(y_true, y_pred) == pytest.approx(accuracy_score(y_true, y_pred))


def test_returns_a_python_float():
    assert type(accuracy(["a"], ["a"])) is float


@pytest.mark.parametrize(("y_true", "y_pred"), [([], []), (["a", "b"], ["a"])])
def test_rejects_empty_or_misaligned_input(y_true, y_pred):
    with pytest.raises(ValueError, match="same shape|zero rows"):
        accuracy(y_true, y_pred)


@pytest.mark.parametrize(
    ("y_true", "y_pred", "expected"),
    [
        (["True", "False", "True"], ["1", "0", "0"], 2 / 3),  # spaceship: pandas reads bools as 1/0
        (["True", "False"], ["true", "FALSE"], 1.0),  # pandas' boolean words, any of its cases
        (["3", "1", "0"], ["3.0", " 1", "2"], 2 / 3),  # cassava: numeric columns compare as numbers
        (["3", "1"], ["3.0", "one"], 0.0),  # a word makes the column text: "3" != "3.0"
    ],
    ids=["bool-vs-int", "bool-words", "numbers", "mixed-is-text"],
)
def test_columns_compare_as_pandas_reads_them_in_v1(y_true, y_pred, expected):
    assert accuracy(y_true, y_pred) == pytest.approx(expected, abs=1e-12)
