"""A small stand-in for Kaggle's smartphone-decimeter-2022 download.

train/<drive>/<phone>/ with ground_truth.csv, device_gnss.csv, device_imu.csv and span_log.nmea; test/ drives
without ground truth; metadata/; sample_submission.csv.
"""

import json
from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, units
from authoring.synthetic import text
from mlebench_spec.declarations import Competition, RealSize

PHONES = ["GooglePixel4", "GooglePixel5", "SamsungGalaxyS20Ultra", "XiaomiMi8"]
EPOCHS = 12


def _drive_names(rng: np.random.Generator, n_dates: int, start: pd.Timestamp) -> list[str]:
    days = np.sort(rng.choice(900, size=n_dates, replace=False))
    names = []
    for day in days:
        date = (start + pd.Timedelta(days=int(day))).strftime("%Y-%m-%d")
        for k in range(int(rng.integers(1, 3))):
            names.append(f"{date}-US-{rng.choice(['MTV', 'SJC', 'LAX'])}-{k + 1}")
    return names


def _phone_folder(folder: Path, rng: np.random.Generator, with_truth: bool) -> None:
    folder.mkdir(parents=True)
    times = 1_600_000_000_000 + int(rng.integers(0, 10**9)) + 1000 * np.arange(EPOCHS)
    lat = 37.4 + np.cumsum(rng.normal(0, 1e-4, size=EPOCHS))
    lon = -122.1 + np.cumsum(rng.normal(0, 1e-4, size=EPOCHS))
    gnss = pd.DataFrame(
        {
            "MessageType": "Raw",
            "utcTimeMillis": times,
            "Svid": rng.integers(1, 32, size=EPOCHS),
            "Cn0DbHz": rng.uniform(20, 45, size=EPOCHS).round(2),
            "WlsPositionXEcefMeters": rng.normal(-2.7e6, 10, size=EPOCHS).round(3),
            "WlsPositionYEcefMeters": rng.normal(-4.3e6, 10, size=EPOCHS).round(3),
            "WlsPositionZEcefMeters": rng.normal(3.85e6, 10, size=EPOCHS).round(3),
        }
    )
    gnss.to_csv(folder / "device_gnss.csv", index=False)
    imu = pd.DataFrame(
        {
            "MessageType": "UncalAccel",
            "utcTimeMillis": times,
            "MeasurementX": rng.normal(size=EPOCHS).round(4),
            "MeasurementY": rng.normal(size=EPOCHS).round(4),
            "MeasurementZ": rng.normal(9.8, 0.1, size=EPOCHS).round(4),
        }
    )
    imu.to_csv(folder / "device_imu.csv", index=False)
    if not with_truth:
        return
    truth = pd.DataFrame(
        {
            "MessageType": "Fix",
            "Provider": "GT",
            "LatitudeDegrees": lat.round(9),
            "LongitudeDegrees": lon.round(9),
            "AltitudeMeters": rng.normal(10, 1, size=EPOCHS).round(3),
            "SpeedMps": rng.uniform(0, 30, size=EPOCHS).round(3),
            "AccuracyMeters": 0.1,
            "BearingDegrees": rng.uniform(0, 360, size=EPOCHS).round(2),
            "UnixTimeMillis": times,
        }
    )
    truth.to_csv(folder / "ground_truth.csv", index=False)
    nmea = [
        f"$GPGGA,{i:06d}.00,{a:.7f},N,{-o:.7f},W,4,12,0.8,10.0,M,0,M,,*00"
        for i, (a, o) in enumerate(zip(lat, lon, strict=True))
    ]
    (folder / "span_log.nmea").write_text("\n".join(nmea) + "\n")


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, all randomness from ``rng``."""
    for drive in _drive_names(rng, 20, pd.Timestamp("2020-05-01")):
        for phone in rng.choice(PHONES, size=int(rng.integers(1, 3)), replace=False):
            _phone_folder(dest / "train" / drive / phone, rng, with_truth=True)
    rows = []
    for drive in _drive_names(rng, 2, pd.Timestamp("2022-01-01")):
        _phone_folder(dest / "test" / drive / PHONES[0], rng, with_truth=False)
        times = pd.read_csv(dest / "test" / drive / PHONES[0] / "device_gnss.csv")["utcTimeMillis"]
        rows += [(f"{drive}-{PHONES[0]}", t, 37.904611315634504, -86.48107806249548) for t in times]
    columns = ["tripId", "UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees"]
    pd.DataFrame(rows, columns=columns).to_csv(dest / "sample_submission.csv", index=False)
    (dest / "metadata").mkdir()
    pd.DataFrame({"Phone": PHONES, "ADR": [1.5, 1.5, 2.0, 1.0]}).to_csv(
        dest / "metadata" / "accumulated_delta_range_sigma_multiplier.csv", index=False
    )
    (dest / "metadata" / "raw_state_bit_map.json").write_text(json.dumps({"0": "STATE_UNKNOWN"}))


REAL_EPOCHS = 1_700  # epochs (rows) per test trip, est.


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Answers and a submission of positions a few metres off, one row per epoch of each trip."""
    trips = units(size.test_rows, REAL_EPOCHS)
    n = trips * REAL_EPOCHS
    trip = np.repeat([f"2021-0{t % 9 + 1}-01-US-MTV-{t}-{PHONES[0]}" for t in range(trips)], REAL_EPOCHS)
    lat, lon = 37 + np.cumsum(rng.normal(0, 1e-5, n)), -122 + np.cumsum(rng.normal(0, 1e-5, n))
    ms = np.tile(np.arange(REAL_EPOCHS) * 1000 + 1_600_000_000_000, trips).astype(str)
    trip = trip.astype(object)
    answers = pd.DataFrame(
        {
            "tripId": trip,
            "UnixTimeMillis": ms,
            "LatitudeDegrees": text(lat, 9),
            "LongitudeDegrees": text(lon, 9),
        }
    )
    submission = pd.DataFrame(
        {
            "tripId": trip,
            "UnixTimeMillis": ms,
            "LatitudeDegrees": text(lat + rng.normal(0, 3e-5, n), 9),
            "LongitudeDegrees": text(lon + rng.normal(0, 3e-5, n), 9),
        }
    )
    return GradingInputs(answers, submission)
