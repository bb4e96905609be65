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


@pytest.mark.parametrize(
    ("tail_true", "tail_pred", "expected_tail_match"),
    [
        ("3", "3.0", True),  # numbers throughout: compared as numbers
        ("cat", "cat", True),  # a word after the first rows: every row compared as text
        ("True", "1", False),  # numbers, then a boolean word: neither reading holds, so text
    ],
)
def test_a_column_is_read_as_a_whole_however_long(tail_true, tail_pred, expected_tail_match):
    # the first 1,024 rows are tried alone first; what follows them must still decide the reading
    head_true = [str(i) for i in range(2000)]
    head_pred = [f"{i}.0" for i in range(2000)]
    numbers = tail_true == "3"
    expected = (2000 * numbers + expected_tail_match) / 2001
    assert accuracy([*head_true, tail_true], [*head_pred, tail_pred]) == pytest.approx(expected)
