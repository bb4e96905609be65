"""Levenshtein edit distance between strings or token sequences, and the metrics built on it."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import Any

from numpy.typing import ArrayLike

from ._arrays import paired, paired_slices


def _levenshtein() -> Any:
    """``rapidfuzz``'s Levenshtein, imported when first needed: memory grading other metrics skips."""
    from rapidfuzz.distance import Levenshtein

    return Levenshtein


def levenshtein(a: Sequence[Hashable], b: Sequence[Hashable]) -> int:
    """Edit distance: the fewest insertions, deletions and substitutions that turn ``a`` into ``b``.

    Works on strings (characters) and on any sequences of hashable tokens; computed by ``rapidfuzz``
    (a C++ bit-parallel implementation), the library the ``Levenshtein`` package MLE-bench uses wraps.

    Examples
    --------
    >>> levenshtein("kitten", "sitting")
    3
    >>> levenshtein([1, 2, 3], [2, 3, 4])
    2
    >>> levenshtein("", "abc")
    3

    """
    return int(_levenshtein().distance(a, b))


def levenshtein_mean(y_true: ArrayLike, y_pred: ArrayLike, *, rows: int = 1 << 14) -> float:
    """Mean over rows of the character edit distance between prediction and answer.

    MLE-bench's billion-word-imputation and bms-molecular-translation graders (``Levenshtein.distance``).

    Parameters
    ----------
    y_true, y_pred
        1-D arrays of strings, aligned by row; a blank prediction is the empty string.
    rows
        Rows converted to Python strings at a time.

    Returns
    -------
    float
        Mean distance >= 0; lower is better.

    Examples
    --------
    >>> levenshtein_mean(["kitten", "abc", "x"], ["sitting", "abc", ""])  # 3, 0, 1
    1.3333333333333333

    """
    distance, total, count = _levenshtein().distance, 0, 0
    for _, true, pred in paired_slices(y_true, y_pred, rows):
        total += sum(map(distance, map(str, true), map(str, pred)))
        count += len(true)
    return float(total / count)  # exact integer sum, one rounding: what np.mean gives on these ints


def normalized_levenshtein(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Total edit distance over integer-token sequences divided by the total answer length.

    Each row is a whitespace-separated sequence of integers (multi-modal-gesture-recognition's gesture
    ids); tokens are compared as integers, so ``"07"`` equals ``"7"``. Score =
    ``sum(distance(true, pred)) / sum(len(true))``, as MLE-bench computes it.

    Parameters
    ----------
    y_true, y_pred
        1-D arrays of strings of integers, aligned by row; a blank prediction is the empty sequence.

    Returns
    -------
    float
        Normalised distance >= 0; lower is better.

    Raises
    ------
    ValueError
        If a token is not an integer, or the answers hold no tokens at all.

    Examples
    --------
    >>> normalized_levenshtein(["1 2 3", "4 5"], ["1 3", "4 05 6"])  # (1 + 1) / 5
    0.4

    """
    true, pred = paired(y_true, y_pred, dtype=object, ndim=1)
    distance = length = 0
    for expected, predicted in zip(true, pred, strict=True):
        t, p = _integers(expected), _integers(predicted)
        distance += levenshtein(t, p)
        length += len(t)
    if length == 0:
        raise ValueError("normalized_levenshtein is undefined when the answers hold no tokens")
    return distance / length


def _integers(text: object) -> list[int]:
    try:
        return [int(token) for token in str(text).split()]
    except ValueError:
        raise ValueError(f"not a whitespace-separated sequence of integers: {text!r}") from None
