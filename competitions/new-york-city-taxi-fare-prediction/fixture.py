"""A small stand-in for the taxi-fare download: train.csv with the real columns and formats, and the rtf."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, regression
from authoring.synthetic import ids
from mlebench_spec.declarations import Competition, RealSize

RIDES = 10_500
"""v1's prepare holds out 9,914 rides (the size of Kaggle's test set): the fixture has those and a few hundred
to train on, so that v1's prepare and ours run on it unchanged."""


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write train.csv (10,500 rides) and the coupon rtf into ``dest``."""
    taxi_rides(RIDES, rng).to_csv(dest / "train.csv", index=False)
    (dest / "GCP-Coupons-Instructions.rtf").write_text("{\\rtf1\\ansi Google Cloud coupon instructions.}\n")


def taxi_rides(n: int, rng: np.random.Generator) -> pd.DataFrame:
    """``n`` rides shaped like Kaggle's train.csv (a few missing drop-off points, as in the real file)."""
    seconds = np.sort(rng.integers(1_230_768_000, 1_435_708_800, size=n))
    stamps = pd.to_datetime(seconds, unit="s").strftime("%Y-%m-%d %H:%M:%S")
    lon = np.round(-73.98 + rng.normal(0, 0.04, size=(n, 2)), 6)
    lat = np.round(40.75 + rng.normal(0, 0.03, size=(n, 2)), 6)
    distance = np.hypot(lon[:, 0] - lon[:, 1], lat[:, 0] - lat[:, 1]) * 100
    dropoff_lon = lon[:, 1].astype(object)
    dropoff_lon[rng.random(n) < 0.01] = np.nan
    return pd.DataFrame(
        {
            "key": [f"{s}.{i:07d}" for i, s in enumerate(stamps)],
            "fare_amount": np.round(2.5 + 1.6 * distance + rng.gamma(2, 1.5, size=n), 2),
            "pickup_datetime": [f"{s} UTC" for s in stamps],
            "pickup_longitude": lon[:, 0],
            "pickup_latitude": lat[:, 0],
            "dropoff_longitude": dropoff_lon,
            "dropoff_latitude": lat[:, 1],
            "passenger_count": rng.integers(1, 7, size=n),
        }
    )


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: gamma-distributed fares, predictions off by a few dollars."""
    n = size.test_rows
    return regression(comp, ids("", n), rng.gamma(2.0, 5.5, n), 4.0, rng)
