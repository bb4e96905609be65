"""Per trip, the mean of the 50th and 95th percentile haversine errors; then the mean over trips.

Used by smartphone-decimeter-2022.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa

from .._cells import text_codes
from ._tables import floats, tables

EARTH_RADIUS_M = 6_371_000.0


def haversine_p50_p95(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    trip_column: str = "tripId",
    lat_column: str = "LatitudeDegrees",
    lon_column: str = "LongitudeDegrees",
) -> float:
    """Per trip, ``(p50 + p95) / 2`` of the haversine distances in metres; then the mean over trips.

    Percentiles are numpy's (linear interpolation). v1 takes each trip's answer rows in the answers' file
    order and the submission's rows of that trip in the *submission's* file order and pairs them by
    position (no timestamp check; spec section 9.2 item 7); :func:`haversine_p50_p95_fixed` pairs rows by
    id. A row's trip is the answers' trip of its id.

    Parameters
    ----------
    y_true
        Answers frame (``numeric_table`` kind) with the trip, latitude and longitude columns.
    y_pred
        Submitted latitude and longitude as floats, answers' row order, indexed by submission file position.
    trip_column, lat_column, lon_column
        Column names.

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
    return _haversine_p50_p95(
        y_true, y_pred, trip_column=trip_column, lat_column=lat_column, lon_column=lon_column, v1=True
    )


def haversine_p50_p95_fixed(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    trip_column: str = "tripId",
    lat_column: str = "LatitudeDegrees",
    lon_column: str = "LongitudeDegrees",
) -> float:
    """Like :func:`haversine_p50_p95`, with v1's departure from the metric's definition corrected.

    Rows are paired by id, not by submission file position within a trip.
    """
    return _haversine_p50_p95(
        y_true, y_pred, trip_column=trip_column, lat_column=lat_column, lon_column=lon_column, v1=False
    )


def _haversine_p50_p95(
    y_true: pd.DataFrame,
    y_pred: pd.DataFrame,
    *,
    trip_column: str = "tripId",
    lat_column: str = "LatitudeDegrees",
    lon_column: str = "LongitudeDegrees",
    v1: bool,
) -> float:
    """Score :func:`haversine_p50_p95` (``v1``: MLE-bench v1's way) or :func:`haversine_p50_p95_fixed`."""
    y_true, y_pred = tables(y_true, y_pred)
    trip = _first_appearance_codes(y_true[trip_column])  # the order v1 averages the trips in
    counts = np.bincount(trip)
    # each trip's answer rows in file order: already together when the answers list trips one after another
    rows = None if (trip[1:] >= trip[:-1]).all() else np.argsort(trip, kind="stable")
    # each answer row's row in the submission file; None when that is the answer row's own
    position = None if y_pred.index.equals(pd.RangeIndex(len(y_pred))) else np.asarray(y_pred.index)
    lat2, lon2 = (y_pred[c].to_numpy(np.float64) for c in (lat_column, lon_column))
    per_trip = []  # one trip at a time, as v1 scores them: its temporaries are a trip's rows, not the file's
    for end, count in zip(np.cumsum(counts), counts, strict=True):
        mine = slice(end - count, end) if rows is None else rows[end - count : end]
        theirs = mine  # "fixed" pairs by id
        if v1 and position is not None:  # v1: with the trip's rows in submission-file order
            theirs = np.arange(end - count, end) if rows is None else mine
            theirs = theirs[np.argsort(position[mine], kind="stable")]
        answers = y_true.iloc[mine]  # parsed a trip at a time: no whole columns of answer floats
        lat1, lon1 = floats(answers, lat_column), floats(answers, lon_column)
        distance = _haversine(lat1, lon1, lat2[theirs], lon2[theirs])
        per_trip.append(np.mean(np.quantile(distance, [0.5, 0.95])))
    return float(np.mean(per_trip))


def _first_appearance_codes(trips: pd.Series) -> np.ndarray:
    """Code each row's trip by the order trips first appear (text trips as int32, no Python ``str`` each)."""
    try:
        return text_codes([pa.array(trips, type=pa.large_string())])[0]
    except (pa.ArrowInvalid, pa.ArrowTypeError):  # trips that are not all text
        return pd.factorize(trips)[0]


def _haversine(lat1: np.ndarray, lon1: np.ndarray, lat2: np.ndarray, lon2: np.ndarray) -> np.ndarray:
    """Great-circle distances in metres between points given in degrees."""
    lat1, lon1, lat2, lon2 = map(np.radians, (lat1, lon1, lat2, lon2))
    a = np.sin((lat2 - lat1) / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2
    return 2 * EARTH_RADIUS_M * np.arcsin(np.sqrt(a))
