"""Point-in-box F1 of kuzushiji-recognition: a predicted character counts when its point is inside a box."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

from ._arrays import paired_slices


def kuzushiji_f1(y_true: ArrayLike, y_pred: ArrayLike) -> float:
    """F1 over all pages of predicted (label, x, y) points matched to true (label, x, y, w, h) boxes.

    For each true box of a page, in order, the **first** still-unused prediction with the same label and
    a point strictly inside the box (``x < px < x + w`` and ``y < py < y + h``) is a true positive and
    is used up; a box without one is a false negative. Unused predictions are false positives. A blank
    answer makes every prediction on that page a false positive; a blank prediction makes every box a
    false negative. Counts are pooled over pages: P = TP / (TP + FP), R = TP / (TP + FN), and F1 =
    2PR / (P + R), or 0 when either denominator (or TP) is 0. This is the Kaggle reference metric that
    MLE-bench's kuzushiji-recognition grader runs.

    Parameters
    ----------
    y_true
        1-D array of strings ``"label x y w h label x y w h ..."`` (blank: no characters on the page).
    y_pred
        1-D array of strings ``"label x y label x y ..."`` (blank: nothing predicted), aligned by row.

    Returns
    -------
    float
        F1 in [0, 1]; higher is better.

    Raises
    ------
    ValueError
        If a string does not split into 5-token boxes or 3-token points with numeric coordinates
        (validation rejects such submissions before scoring).

    Examples
    --------
    >>> truth = ["U+0041 0 0 10 10 U+0042 20 0 10 10", ""]
    >>> kuzushiji_f1(truth, ["U+0041 5 5 U+0042 5 5", "U+0043 1 1"])  # TP 1, FP 2, FN 1
    0.4
    >>> kuzushiji_f1(truth, ["U+0042 25 5 U+0041 1 1", ""])
    1.0

    """
    tp = fp = fn = 0
    pages = (
        (start + k, boxes_text, points_text)
        for start, true, pred in paired_slices(y_true, y_pred, rows=64)  # pages of text, a few at a time
        for k, (boxes_text, points_text) in enumerate(zip(true, pred, strict=True))
    )
    for row, boxes_text, points_text in pages:
        box_labels, boxes = _parse(boxes_text, 5, f"y_true row {row}")
        point_labels, points = _parse(points_text, 3, f"y_pred row {row}")
        # A box only ever takes a point of its own label, so each label's points are matched apart: the
        # first unused one inside the box, in submission order (the same as a mask over all points).
        unused: dict[str, list[tuple[float, float]]] = {}
        for label, (px, py) in zip(point_labels.tolist(), points.tolist(), strict=True):
            unused.setdefault(label, []).append((px, py))
        for label, (x, y, w, h) in zip(box_labels.tolist(), boxes.tolist(), strict=True):
            candidates = unused.get(label, ())
            inside = (k for k, (px, py) in enumerate(candidates) if x < px < x + w and y < py < y + h)
            hit = next(inside, None)
            if hit is None:
                fn += 1
            else:
                tp += 1
                del candidates[hit]
        fp += sum(map(len, unused.values()))
    if tp == 0:
        return 0.0
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    return 2 * precision * recall / (precision + recall)


def _parse(text: object, width: int, where: str) -> tuple[np.ndarray, np.ndarray]:
    """Labels and an ``(n, width - 1)`` float array of coordinates from a flat token string."""
    tokens = str(text).split()
    if len(tokens) % width:
        raise ValueError(f"{where}: {len(tokens)} tokens is not a multiple of {width}")
    table = np.array(tokens, dtype=object).reshape(-1, width)
    try:
        coordinates = table[:, 1:].astype(np.float64)
    except ValueError:
        raise ValueError(f"{where}: a coordinate is not a number") from None
    return table[:, 0].astype(str), coordinates
