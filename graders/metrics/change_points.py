"""F1 of detected change points within a tolerance, over many streams (stream-change-points).

Change-point benchmarks score detections as events: a detection within ``margin`` positions of a true
change point is a hit, each true change point can be hit once, and each detection can hit once.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np


def positions(cell: object) -> list[int]:
    """Return the distinct positions of one cell (blank or missing: none), ascending.

    >>> positions("40 12 40")
    [12, 40]
    >>> positions("")
    []
    """
    if cell is None or (isinstance(cell, float) and np.isnan(cell)):
        return []
    return sorted({int(t) for t in str(cell).split()})


def matches(truth: Sequence[int], found: Sequence[int], margin: int) -> int:
    """How many one-to-one pairs (true, detected) at most ``margin`` apart, closest pairs first.

    >>> matches([100, 200], [95, 104, 260], margin=10)  # 95 and 104 both near 100: only one counts
    1
    >>> matches([100, 110], [105], margin=10)
    1
    """
    pairs = sorted((abs(d - t), t, d) for t in truth for d in found if abs(d - t) <= margin)
    used_t: set[int] = set()
    used_d: set[int] = set()
    for _, t, d in pairs:
        if t not in used_t and d not in used_d:
            used_t.add(t)
            used_d.add(d)
    return len(used_t)


def change_point_f1(y_true: Sequence[object], y_pred: Sequence[object], *, margin: int = 10) -> float:
    """Micro F1 over all rows: ``2 TP / (2 TP + FP + FN)``; 1.0 when there is nothing to find or found.

    ``y_true`` and ``y_pred`` hold, per stream, whitespace-separated positions (blank: none).

    >>> change_point_f1(["100 300", "500"], ["104 200", ""], margin=10)  # TP 1, FP 1, FN 2
    0.4
    """
    if len(y_true) != len(y_pred) or len(y_true) == 0:
        raise ValueError(f"need the same non-zero number of rows, got {len(y_true)} and {len(y_pred)}")
    tp = fp = fn = 0
    for true_cell, pred_cell in zip(
        np.asarray(y_true, dtype=object), np.asarray(y_pred, dtype=object), strict=True
    ):
        truth, found = positions(true_cell), positions(pred_cell)
        hit = matches(truth, found, margin)
        tp += hit
        fp += len(found) - hit
        fn += len(truth) - hit
    if tp + fp + fn == 0:
        return 1.0
    return 2.0 * tp / (2.0 * tp + fp + fn)
