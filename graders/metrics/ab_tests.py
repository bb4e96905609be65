"""Points for analysed A/B experiments (ab-test-analysis): the decision, and an interval covering the truth.

Per experiment (the answers give ``decision``, ``true_effect`` and ``max_width``):

- invalid (``decision`` -1 in the answers: a sample-ratio mismatch): 1 point for deciding -1, else 0;
- valid: 0.5 for the right decision (1 when the true effect is above zero, 0 when it is not; -1 is wrong)
  plus 0.5 when ``lower < true_effect < upper`` (strictly, so a zero-width interval never covers) and
  ``upper - lower <= max_width``.

The score is the mean of the points (1 is perfect).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._tables import floats, tables


def ab_test_points(y_true: pd.DataFrame, y_pred: pd.DataFrame) -> np.ndarray:
    """Each experiment's points, in the answers' row order.

    >>> truth = pd.DataFrame({"decision": ["1", "0", "-1"], "true_effect": ["2", "0", "5"],
    ...                       "max_width": ["4", "4", "4"]})
    >>> pred = pd.DataFrame({"lower": [1.0, -1.0, 4.0], "upper": [3.0, 1.0, 6.0],
    ...                      "decision": [1.0, 1.0, 0.0]})
    >>> ab_test_points(truth, pred).tolist()
    [1.0, 0.5, 0.0]
    """
    y_true, y_pred = tables(y_true, y_pred)
    decision, effect = floats(y_true, "decision"), floats(y_true, "true_effect")
    width_cap = floats(y_true, "max_width")
    lower, upper = y_pred["lower"].to_numpy(float), y_pred["upper"].to_numpy(float)
    said = y_pred["decision"].to_numpy(float)
    invalid = decision == -1
    right = said == decision
    covered = (lower < effect) & (effect < upper) & (upper - lower <= width_cap)
    return np.where(invalid, right.astype(float), 0.5 * right + 0.5 * covered)


def ab_test_score(y_true: pd.DataFrame, y_pred: pd.DataFrame) -> float:
    """Mean points over the experiments (see the module docstring); higher is better, 1 is perfect."""
    return float(ab_test_points(y_true, y_pred).mean())
