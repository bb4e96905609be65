"""Mean angle between true and predicted directions (icecube-neutrinos-in-deep-ice)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from .._threads import chunked_sum
from ._tables import floats, tables


def mean_angular_error(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    azimuth_column: str = "azimuth",
    zenith_column: str = "zenith",
) -> float:
    """Mean over rows of the angle, in radians, between the true and predicted unit direction vectors.

    Each direction ``(azimuth, zenith)`` becomes ``(sin z cos a, sin z sin a, cos z)``; the dot product is
    clipped to [-1, 1] before ``arccos``, as in v1 (Kaggle's formula).

    Parameters
    ----------
    y_true, y_pred
        Answers frame and submitted floats (``numeric_table`` kind), aligned by id.
    azimuth_column, zenith_column
        Column names.

    Returns
    -------
    float
        Mean angular error in [0, pi]; lower is better.

    Examples
    --------
    >>> t = pd.DataFrame({"azimuth": ["0", "0"], "zenith": ["0", "1.5707963267948966"]})
    >>> p = pd.DataFrame({"azimuth": [1.0, 3.141592653589793], "zenith": [0.0, 1.5707963267948966]})
    >>> round(mean_angular_error(t, p), 6)  # same pole, then opposite horizontal directions: (0 + pi) / 2
    1.570796

    """
    y_true, y_pred = tables(y_true, y_pred)
    a2, z2 = y_pred[azimuth_column].to_numpy(np.float64), y_pred[zenith_column].to_numpy(np.float64)

    def angles(rows: slice) -> float:
        # the answers parsed a slice at a time, never a whole column of floats (icecube's 13M rows: 165 MB)
        answers = y_true.iloc[rows]
        t1, t2 = floats(answers, zenith_column), z2[rows]
        u1, u2 = floats(answers, azimuth_column), a2[rows]
        horizontal = np.cos(u1) * np.cos(u2) + np.sin(u1) * np.sin(u2)
        dot = np.sin(t1) * np.sin(t2) * horizontal + np.cos(t1) * np.cos(t2)
        return float(np.abs(np.arccos(np.clip(dot, -1.0, 1.0))).sum())

    return chunked_sum(angles, len(a2)) / len(a2)
