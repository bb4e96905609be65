"""Golden cases for ``dice_rle``, and agreement with a pixel-by-pixel reference on random masks."""

import json
from pathlib import Path

import numpy as np
import pytest

from graders.metrics.dice_rle import dice_rle
from graders.rle import rle_decode, rle_encode

SPEC = json.loads((Path(__file__).parent / "cases" / "dice_rle.json").read_text())
CASES = SPEC["cases"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    got = dice_rle(
        np.array(case["y_true"], dtype=object), np.array(case["y_pred"], dtype=object), **SPEC["args"]
    )
    assert got == pytest.approx(case["expected"], abs=1e-12)


def _pixel_dice(true_rles, pred_rles, height, width):
    """Compute the reference score by painting every mask and counting pixels."""
    scores = []
    for t, p in zip(true_rles, pred_rles, strict=True):
        a, b = rle_decode(t, height, width), rle_decode(p, height, width)
        total = a.sum() + b.sum()
        scores.append(1.0 if total == 0 else 2 * (a & b).sum() / total)
    return float(np.mean(scores))


@pytest.mark.parametrize("seed", range(5))
def test_agrees_with_painting_the_masks(seed):
    rng = np.random.default_rng(seed)
    height, width = 7, 5
    masks = rng.random((2, 40, height, width)) < rng.uniform(0, 0.6, (2, 40, 1, 1))
    masks[:, :5] = False  # some empty images, some where only one side is empty
    masks[0, 5:8] = False
    true_rles = [rle_encode(m) for m in masks[0]]
    pred_rles = [rle_encode(m) for m in masks[1]]
    expected = _pixel_dice(true_rles, pred_rles, height, width)
    assert dice_rle(true_rles, pred_rles, height=height, width=width) == pytest.approx(expected, abs=1e-12)


def test_malformed_rle_is_an_error():
    with pytest.raises(ValueError, match="y_pred row 1: malformed RLE '3 1 1 1'"):
        dice_rle(["1 1", "1 1"], ["1 1", "3 1 1 1"], height=2, width=2)


def test_height_and_width_are_required():
    with pytest.raises(TypeError):
        dice_rle(["1 1"], ["1 1"])  # type: ignore[call-arg]
