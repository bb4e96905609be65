"""Per trip, the mean of the 50th and 95th percentile haversine errors; then the mean over trips.

Used by smartphone-decimeter-2022.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ._tables import check_variant, floats, tables

EARTH_RADIUS_M = 6_371_000.0


def haversine_p50_p95(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    trip_column: str = "tripId",
    lat_column: str = "LatitudeDegrees",
    lon_column: str = "LongitudeDegrees",
    variant: str = "v1",
) -> float:
    """Per trip, ``(p50 + p95) / 2`` of the haversine distances in metres; then the mean over trips.

    Percentiles are numpy's (linear interpolation). v1 takes each trip's answer rows in the answers' file
    order and the submission's rows of that trip in the *submission's* file order and pairs them by
    position (no timestamp check; spec section 9.2 item 7); ``variant="fixed"`` pairs rows by id. A row's
    trip is the answers' trip of its id.

    Parameters
    ----------
    y_true
        Answers frame (``numeric_table`` kind) with the trip, latitude and longitude columns.
    y_pred
        Submitted latitude and longitude as floats, answers' row order, indexed by submission file position.
    trip_column, lat_column, lon_column
        Column names.
    variant
        ``"v1"`` (default) or ``"fixed"``.

    Returns
    -------
    float
        Metres; lower is better.

    Examples
    --------
    >>> t = pd.DataFrame({"tripId": ["a", "a"], "LatitudeDegrees": ["0", "0"],
    ...                   "LongitudeDegrees": ["0", "1"]})
    >>> p = pd.DataFrame({"LatitudeDegrees": [0.0, 0.0], "LongitudeDegrees": [0.0, 0.0]})
    >>> round(haversine_p50_p95(t, p), 1)  # errors 0 and 111195 m: (55597.5 + 105635.2) / 2
    80616.3

    """
    check_variant(variant)
    y_true, y_pred = tables(y_true, y_pred)
    # trips coded in the answers' first-appearance order, the order v1 averages them in
    trip, _ = pd.factorize(y_true[trip_column])
    rows = np.argsort(trip, kind="stable")  # by trip, then answers' file order
    position = np.asarray(y_pred.index)  # each answer row's row in the submission file
    lat1, lon1 = floats(y_true, lat_column), floats(y_true, lon_column)
    lat2, lon2 = (y_pred[c].to_numpy(np.float64) for c in (lat_column, lon_column))
    per_trip = []  # one trip at a time, as v1 scores them: its temporaries are a trip's rows, not the file's
    for mine in np.split(rows, np.cumsum(np.bincount(trip))[:-1]):
        # v1 pairs them with the trip's submitted rows in submission-file order; "fixed" pairs by id
        theirs = mine[np.argsort(position[mine], kind="stable")] if variant == "v1" else mine
        distance = _haversine(lat1[mine], lon1[mine], lat2[theirs], lon2[theirs])
        per_trip.append(np.mean(np.quantile(distance, [0.5, 0.95])))
    return float(np.mean(per_trip))


def _haversine(lat1: np.ndarray, lon1: np.ndarray, lat2: np.ndarray, lon2: np.ndarray) -> np.ndarray:
    """Great-circle distances in metres between points given in degrees."""
    lat1, lon1, lat2, lon2 = map(np.radians, (lat1, lon1, lat2, lon2))
    a = np.sin((lat2 - lat1) / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_M * np.arcsin(np.sqrt(a))
