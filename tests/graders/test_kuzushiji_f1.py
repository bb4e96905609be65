"""Golden cases and edge cases for ``kuzushiji_f1``."""

import json
import math
from pathlib import Path

import pytest

from graders.metrics.kuzushiji_f1 import kuzushiji_f1

GOLDEN = json.loads((Path(__file__).parent / "cases" / "kuzushiji_f1.json").read_text())
CASES = GOLDEN["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    args = {**GOLDEN.get("args", {}), **case.get("args", {})}
    score = kuzushiji_f1(case["y_true"], case["y_pred"], **args)
    if case["expected"] == "nan":
        assert math.isnan(score)
    else:
        assert score == pytest.approx(case["expected"], abs=1e-12)


def test_malformed_prediction_is_an_error():
    with pytest.raises(ValueError, match="multiple of 3"):
        kuzushiji_f1(["U+0041 0 0 10 10"], ["U+0041 5"])
    with pytest.raises(ValueError, match="not a number"):
        kuzushiji_f1(["U+0041 0 0 10 10"], ["U+0041 x 5"])


def _reference(y_true, y_pred):
    """Score as the Kaggle reference matches: one mask over all of a page's points per box."""
    import numpy as np

    tp = fp = fn = 0
    for truth, preds in zip(y_true, y_pred, strict=True):
        t, p = truth.split(), preds.split()
        labels, boxes = np.array(t[0::5]), np.array([t[i::5] for i in range(1, 5)], dtype=float).T
        plabels, points = np.array(p[0::3]), np.array([p[i::3] for i in range(1, 3)], dtype=float).T
        unused = np.ones(len(plabels), dtype=bool)
        for label, (x, y, w, h) in zip(labels, boxes.reshape(-1, 4), strict=True):
            px, py = points.reshape(-1, 2)[:, 0], points.reshape(-1, 2)[:, 1]
            inside = unused & (plabels == label) & (x < px) & (px < x + w) & (y < py) & (py < y + h)
            if inside.any():
                tp += 1
                unused[np.argmax(inside)] = False
            else:
                fn += 1
        fp += int(unused.sum())
    if tp == 0:
        return 0.0
    precision, recall = tp / (tp + fp), tp / (tp + fn)
    return 2 * precision * recall / (precision + recall)


@pytest.mark.parametrize("seed", range(25))
def test_matching_by_label_equals_the_reference_mask(seed):
    """Few labels, overlapping boxes and points on box edges: every greedy tie-break is exercised."""
    import numpy as np

    rng = np.random.default_rng(seed)
    truths, preds = [], []
    for _ in range(int(rng.integers(1, 8))):
        n_box, n_pt = int(rng.integers(0, 30)), int(rng.integers(0, 40))
        box = [
            f"L{rng.integers(0, 3)} {rng.integers(0, 20)} {rng.integers(0, 20)} {rng.integers(1, 9)} "
            f"{rng.integers(1, 9)}"
            for _ in range(n_box)
        ]
        pts = [f"L{rng.integers(0, 3)} {rng.integers(0, 28)} {rng.integers(0, 28)}" for _ in range(n_pt)]
        truths.append(" ".join(box))
        preds.append(" ".join(pts))
    if not any(truths):
        truths[0] = "L0 0 0 5 5"
    assert kuzushiji_f1(truths, preds) == _reference(truths, preds)
