"""Golden cases and edge cases for ``weighted_multilabel_log_loss`` (kind ``numeric_table``)."""

import math

import pandas as pd
import pytest

from graders.metrics.weighted_log_loss import TARGETS, weighted_multilabel_log_loss


def _answers(studies):
    """One row per (study, type); ``studies`` maps a study id to its 8 labels in TARGETS order."""
    rows = [
        (f"{s}_{t}", str(y)) for s, labels in studies.items() for t, y in zip(TARGETS, labels, strict=True)
    ]
    return pd.DataFrame(rows, columns=["row_id", "fractured"])


def _score(answers, predictions):
    return weighted_multilabel_log_loss(answers, pd.DataFrame({"fractured": predictions}))


def test_constant_half_is_ln_2():
    """rsna-2022's sample submission (0.5 everywhere) scores ln 2 = 0.69315 (spec §10.1)."""
    answers = _answers({"1.2.3": [1, 1, 0, 0, 0, 0, 0, 0], "1.2.4": [0] * 8})
    assert _score(answers, [0.5] * 16) == pytest.approx(math.log(2), abs=1e-12)


def test_weights_by_type_and_label():
    # overall positive (weight 14) predicted 0.5 costs ln 2; the 7 negatives (weight 1 each) cost ~0
    answers = _answers({"1.2.3": [1, 0, 0, 0, 0, 0, 0, 0]})
    assert _score(answers, [0.5] + [0.0] * 7) == pytest.approx(14 * math.log(2) / 21, abs=1e-12)


def test_mean_over_studies():
    # study a: only C1 positive (weight 2) at 0.5; weights 7 + 2 + 6 = 15 -> 2 ln2 / 15; study b: perfect
    answers = _answers({"a": [0, 1, 0, 0, 0, 0, 0, 0], "b": [0] * 8})
    predictions = [0.0, 0.5] + [0.0] * 6 + [0.0] * 8
    assert _score(answers, predictions) == pytest.approx(2 * math.log(2) / 15 / 2, abs=1e-12)


def test_clipped_at_1e_15():
    answers = _answers({"a": [1] * 8})
    assert _score(answers, [0.0] * 8) == pytest.approx(-math.log(1e-15), abs=1e-9)


def test_a_study_missing_a_type_scores_nan():
    answers = _answers({"a": [0] * 8}).iloc[:7]
    assert math.isnan(_score(answers, [0.1] * 7))


def test_a_probability_above_one_is_an_error():
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        _score(_answers({"a": [0] * 8}), [1.5] + [0.0] * 7)
