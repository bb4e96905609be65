"""Golden cases and edge cases for ``jigsaw_bias_auc`` (answers come as a frame: kind ``numeric_table``)."""

import pandas as pd
import pytest

from graders.metrics.bias_auc import jigsaw_bias_auc, jigsaw_bias_auc_fixed

ANSWERS = pd.DataFrame(
    {"toxicity": ["0.9", "0.1", "0.7", "0.0"], "male": ["1", "1", "0", ""], "female": ["0", "1", "1", "0"]}
)


def _score(predictions, fixed=False, **args):
    metric = jigsaw_bias_auc_fixed if fixed else jigsaw_bias_auc
    return metric(ANSWERS, pd.DataFrame({"prediction": predictions}), **args)


def test_constant_half_scores_one_half():
    """The jigsaw-unintended-bias sample submission (0.5 everywhere) scores 0.5 (spec §10.1)."""
    assert _score([0.5] * 4, identities=["male", "female"]) == 0.5


def test_perfect_ranking():
    assert _score([0.8, 0.2, 0.6, 0.1], identities=["male", "female"]) == 1.0


def test_hand_computed():
    # hard labels [1, 0, 0, 0] against toxic [1, 0, 1, 0], male [1, 1, 0, 0] (blank is 0):
    # overall 0.75; subgroup rows {0, 1}: 1; BPSN rows {1, 2}: a tie, 0.5; BNSP rows {0, 3}: 1
    assert _score([0.8, 0.2, 0.4, 0.1], identities=["male"]) == 0.25 * 0.75 + 0.25 * (1 + 0.5 + 1)


def test_power_mean_over_identities():
    # female [0, 1, 1, 0] with hard labels [1, 0, 0, 0]: subgroup rows {1, 2}: a tie, 0.5;
    # BPSN rows {0, 1} (toxic without, non-toxic with): 1; BNSP rows {2, 3}: a tie, 0.5
    male = (1.0, 0.5, 1.0)
    female = (0.5, 1.0, 0.5)
    means = [((a**-5 + b**-5) / 2) ** (-1 / 5) for a, b in zip(male, female, strict=True)]
    expected = 0.25 * 0.75 + 0.25 * sum(means)
    assert _score([0.8, 0.2, 0.4, 0.1], identities=["male", "female"]) == pytest.approx(expected, abs=1e-12)


def test_grading_jigsaw_bias_binarises_predictions():
    """Spec §9.2.1: v1 thresholds the predictions at 0.5 before every AUC.

    So a ranking that is right but stays below 0.5 scores like a constant; ``jigsaw_bias_auc_fixed`` scores
    the ranking.
    """
    below_half = [0.4, 0.1, 0.3, 0.0]
    assert _score(below_half, identities=["male"]) == 0.5
    assert _score(below_half, identities=["male"], fixed=True) == 1.0


def test_a_subgroup_with_one_class_is_an_error():
    with pytest.raises(ValueError, match="only one class"):
        jigsaw_bias_auc(
            ANSWERS.assign(male=["1", "0", "0", "0"]),
            pd.DataFrame({"prediction": [0.8, 0.2, 0.6, 0.1]}),
            identities=["male"],
        )
