"""A small stand-in for Kaggle's icecube-neutrinos-in-deep-ice download.

train_meta.parquet (one row per event), sensor_geometry.csv and one pulse file train/batch_{n}.parquet per
batch, indexed by event_id like the real ones.
"""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs
from authoring.synthetic import text
from mlebench_spec.declarations import Competition, RealSize

N_BATCHES, EVENTS_PER_BATCH, N_SENSORS = 20, 15, 50


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the stand-in download into ``dest``, all randomness from ``rng``."""
    pd.DataFrame(
        {
            "sensor_id": range(N_SENSORS),
            "x": rng.uniform(-500, 500, N_SENSORS).round(2),
            "y": rng.uniform(-500, 500, N_SENSORS).round(2),
            "z": rng.uniform(-500, 500, N_SENSORS).round(2),
        }
    ).to_csv(dest / "sensor_geometry.csv", index=False)
    (dest / "train").mkdir()
    metas, event_id = [], 24
    for batch in range(1, N_BATCHES + 1):
        counts = rng.integers(2, 6, size=EVENTS_PER_BATCH)
        events = event_id + np.arange(EVENTS_PER_BATCH) * 3
        event_id = int(events[-1]) + 3
        last = np.cumsum(counts) - 1
        metas.append(
            pd.DataFrame(
                {
                    "batch_id": batch,
                    "event_id": events,
                    "first_pulse_index": last - counts + 1,
                    "last_pulse_index": last,
                    "azimuth": rng.uniform(0, 2 * np.pi, EVENTS_PER_BATCH),
                    "zenith": rng.uniform(0, np.pi, EVENTS_PER_BATCH),
                }
            )
        )
        n = int(counts.sum())
        pulses = pd.DataFrame(
            {
                "sensor_id": rng.integers(0, N_SENSORS, n).astype(np.int16),
                "time": rng.integers(5000, 20000, n).astype(np.int64),
                "charge": rng.exponential(1.0, n).round(3),
                "auxiliary": rng.random(n) < 0.5,
            },
            index=pd.Index(np.repeat(events, counts), name="event_id"),
        )
        pulses.to_parquet(dest / "train" / f"batch_{batch}.parquet")
    pd.concat(metas, ignore_index=True).to_parquet(dest / "train_meta.parquet", index=False)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Answers and a submission of directions (azimuth, zenith) off by about 0.3 radians."""
    n = size.test_rows
    az, ze = rng.uniform(0, 2 * np.pi, n), rng.uniform(0, np.pi, n)
    row_ids = np.arange(n).astype(str).astype(object)
    answers = pd.DataFrame({"event_id": row_ids, "azimuth": text(az, 4), "zenith": text(ze, 4)})
    submission = pd.DataFrame(
        {
            "event_id": row_ids,
            "azimuth": text(az + rng.normal(0, 0.3, n), 4),
            "zenith": text(ze + rng.normal(0, 0.3, n), 4),
        }
    )
    return GradingInputs(answers, submission)
