"""Word-level Jaccard similarity between predicted and true text spans."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._arrays import paired


def jaccard_words(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Mean over rows of ``|A & B| / |A | B|`` over the sets of lower-cased whitespace-separated words.

    Used by MLE-bench's chaii-hindi-and-tamil-question-answering and tweet-sentiment-extraction graders.
    A row where both sets are empty is 0/0: v1's chaii grader (scikit-learn ``jaccard_score`` with the
    default ``zero_division``) scores it 0, which this metric reproduces; :func:`jaccard_words_fixed` scores
    it 1, as Kaggle did (spec §9.2.15). v1's tweet grader raises on such a row instead, which can only happen
    when an answer is blank.

    Parameters
    ----------
    y_true, y_pred
        1-D arrays of strings, aligned by row; a blank cell is the empty set.

    Returns
    -------
    float
        Mean Jaccard in [0, 1]; higher is better.

    Examples
    --------
    >>> jaccard_words(["the cat sat", "Hello"], ["The cat", "hello world"])  # 2/3 and 1/2
    0.5833333333333333
    >>> jaccard_words(["a", ""], ["a", ""])
    0.5

    """
    return _jaccard_words(y_true, y_pred, v1=True)


def jaccard_words_fixed(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """Like :func:`jaccard_words`, with v1's departure from the metric's definition corrected.

    A row where both sets are empty scores 1, as Kaggle did (spec §9.2.15).

    Examples
    --------
    >>> jaccard_words_fixed(["a", ""], ["a", ""])
    1.0

    """
    return _jaccard_words(y_true, y_pred, v1=False)


def _jaccard_words(y_true: ArrayLike, y_pred: ArrayLike, *, v1: bool) -> float:
    """Score :func:`jaccard_words` (``v1``: MLE-bench v1's way) or :func:`jaccard_words_fixed`."""
    true, pred = paired(y_true, y_pred, dtype=object, ndim=1)
    both_empty_score = 1.0 if not v1 else 0.0
    scores = np.empty(len(true))
    for row, (expected, predicted) in enumerate(zip(true, pred, strict=True)):
        a, b = set(str(expected).lower().split()), set(str(predicted).lower().split())
        union = len(a | b)
        scores[row] = len(a & b) / union if union else both_empty_score
    return float(scores.mean())
