"""A small stand-in for Kaggle's ventilator-pressure-prediction download: train.csv, breaths of time steps."""

from pathlib import Path

import numpy as np
import pandas as pd

_STEPS = 8


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, every random choice drawn from ``rng``."""
    breaths = np.sort(rng.choice(np.arange(1, 2000), size=300, replace=False))
    rows = []
    for breath in breaths:
        r, c = int(rng.choice([5, 20, 50])), int(rng.choice([10, 20, 50]))
        times = np.cumsum(rng.uniform(0.03, 0.04, size=_STEPS)) - 0.033
        for step in range(_STEPS):
            rows.append(
                {
                    "breath_id": int(breath),
                    "R": r,
                    "C": c,
                    "time_step": max(float(times[step]), 0.0),
                    "u_in": float(rng.uniform(0, 100)),
                    "u_out": int(step >= _STEPS // 2),
                    "pressure": float(rng.uniform(5, 40)),
                }
            )
    frame = pd.DataFrame(rows)
    frame.insert(0, "id", np.arange(1, len(frame) + 1))
    frame.to_csv(dest / "train.csv", index=False)
