"""Golden cases for ``haversine_p50_p95`` (expected values from independent v1-style reference code)."""

import numpy as np
import pandas as pd
import pytest

from graders.metrics.haversine_p50_p95 import haversine_p50_p95, haversine_p50_p95_fixed

from ._golden import check, load

CASES = load("haversine_p50_p95")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("haversine_p50_p95", case)


def _by_definition(y_true: pd.DataFrame, y_pred: pd.DataFrame, variant: str) -> float:
    """Score as spec section 9.2 item 7 says, row by row.

    Per trip, in first-appearance order, the answer rows in file order; v1 pairs them with that trip's
    submitted rows in submission-file order, "fixed" with their own rows.
    """
    trips = list(dict.fromkeys(y_true["tripId"]))
    per_trip = []
    for trip in trips:
        mine = [i for i, t in enumerate(y_true["tripId"]) if t == trip]
        theirs = sorted(mine, key=lambda i: y_pred.index[i]) if variant == "v1" else mine
        lat1, lon1 = (
            np.radians(y_true[c].astype(float).to_numpy()[mine])
            for c in ("LatitudeDegrees", "LongitudeDegrees")
        )
        lat2, lon2 = (
            np.radians(y_pred[c].to_numpy()[theirs]) for c in ("LatitudeDegrees", "LongitudeDegrees")
        )
        a = np.sin((lat2 - lat1) / 2) ** 2 + np.cos(lat1) * np.cos(lat2) * np.sin((lon2 - lon1) / 2) ** 2
        distance = 2 * 6_371_000.0 * np.arcsin(np.sqrt(a))
        per_trip.append(np.mean(np.quantile(distance, [0.5, 0.95])))
    return float(np.mean(per_trip))


@pytest.mark.parametrize("seed", range(40))
def test_trips_together_or_interleaved_and_rows_in_order_or_not(seed: int) -> None:
    """The shortcuts score as the general path does.

    The shortcuts: trips listed one after another, a submission in the answers' order. The general path:
    trips interleaved, rows shuffled. Either variant, text or float answers.
    """
    rng = np.random.default_rng(seed)
    n = int(rng.integers(1, 80))
    trips = rng.choice([f"2021-0{i}-US-MTV-{i}-Pixel" for i in range(int(rng.integers(1, 6)))], n)
    if seed % 2:
        trips = np.sort(trips)  # each trip's rows together, as the real answers list them
    lat, lon = 37 + rng.random(n), -122 + rng.random(n)
    text = seed % 3 == 0
    y_true = pd.DataFrame(
        {
            "tripId": pd.array(trips, dtype="str"),
            "LatitudeDegrees": pd.array([f"{v:.9f}" for v in lat], dtype="str") if text else lat,
            "LongitudeDegrees": pd.array([f"{v:.9f}" for v in lon], dtype="str") if text else lon,
        }
    )
    index = pd.RangeIndex(n) if seed % 4 < 2 else pd.Index(rng.permutation(n))
    y_pred = pd.DataFrame(
        {"LatitudeDegrees": lat + rng.normal(0, 1e-4, n), "LongitudeDegrees": lon + rng.normal(0, 1e-4, n)},
        index=index,
    )
    for variant in ("v1", "fixed"):
        want = _by_definition(y_true, y_pred, variant)
        metric = haversine_p50_p95 if variant == "v1" else haversine_p50_p95_fixed
        assert metric(y_true, y_pred) == pytest.approx(want, rel=1e-12)
