"""Golden cases for ``iou_threshold_precision`` (expected values from independent v1-style reference code)."""

import numpy as np
import pytest

from graders.metrics.iou_threshold_precision import iou_threshold_precision, iou_threshold_precision_fixed

from ._golden import check, load

CASES = load("iou_threshold_precision")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("iou_threshold_precision", case)


def test_empty_prediction_scores_like_full_mask_v1_bug():
    """Spec 9.2 item 3: v1's histogram2d puts an all-empty prediction in the foreground bin."""
    from graders.rle import rle_encode

    truth = np.zeros((10, 10), dtype=bool)
    truth.flat[:69] = True  # 69% coverage
    rle = rle_encode(truth)
    assert iou_threshold_precision([rle], [""], height=10, width=10) == pytest.approx(0.4)
    assert iou_threshold_precision_fixed([rle], [""], height=10, width=10) == 0.0
