"""A small stand-in for Kaggle's INGV volcanic download: train.csv and one sensor CSV per segment."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, regression
from authoring.synthetic import ids
from mlebench_spec.declarations import Competition, RealSize


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small synthetic download into the empty folder ``dest``."""
    n = 260
    ids = rng.choice(2**31 - 1, size=n, replace=False)
    pd.DataFrame({"segment_id": ids, "time_to_eruption": rng.integers(6000, 49_000_000, size=n)}).to_csv(
        dest / "train.csv", index=False
    )
    (dest / "train").mkdir()
    for segment in ids:
        signals = rng.normal(0, 300, size=(6, 10)).round()
        signals[:, rng.random(size=10) < 0.05] = np.nan  # some sensors are missing for a whole segment
        sensors = pd.DataFrame(signals, columns=[f"sensor_{k}" for k in range(1, 11)])
        sensors.to_csv(dest / "train" / f"{segment}.csv", index=False)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: times to eruption up to 49M, predictions with Gaussian noise."""
    n = size.test_rows
    return regression(comp, ids("", n), rng.integers(6_000, 49_000_000, n).astype(float), 5e6, rng)
