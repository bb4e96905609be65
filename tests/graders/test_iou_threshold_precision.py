"""Golden cases for ``iou_threshold_precision`` (expected values from independent v1-style reference code)."""

import numpy as np
import pytest

from graders.metrics.iou_threshold_precision import iou_threshold_precision

from ._golden import check, load, score

CASES = load("iou_threshold_precision")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("iou_threshold_precision", case)


def test_unknown_variant_is_an_error():
    case = CASES[0]
    if "variant" not in iou_threshold_precision.__kwdefaults__:
        pytest.skip("no variants")
    with pytest.raises(ValueError, match="variant"):
        score("iou_threshold_precision", {**case, "args": {**case["args"], "variant": "v2"}})


def test_empty_prediction_scores_like_full_mask_v1_bug():
    """Spec 9.2 item 3: v1's histogram2d puts an all-empty prediction in the foreground bin."""
    from graders.rle import rle_encode

    truth = np.zeros((10, 10), dtype=bool)
    truth.flat[:69] = True  # 69% coverage
    rle = rle_encode(truth)
    assert iou_threshold_precision([rle], [""], height=10, width=10) == pytest.approx(0.4)
    assert iou_threshold_precision([rle], [""], height=10, width=10, variant="fixed") == 0.0
