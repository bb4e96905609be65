"""A small stand-in for Kaggle's ventilator-pressure-prediction download: train.csv, breaths of time steps."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, assemble, single, units
from authoring.synthetic import text
from mlebench_spec.declarations import Competition, RealSize

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


REAL_STEPS, REAL_INSPIRATORY = 80, 30  # time steps per breath; the first ones have u_out 0 (scored)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Pressure curves per breath, with ``u_out`` (the scored phase) in the answers; predictions noisy."""
    breaths = units(size.test_rows, REAL_STEPS)
    n = breaths * REAL_STEPS
    step = np.tile(np.arange(REAL_STEPS), breaths)
    pressure = 6 + 20 * np.exp(-((step - 15) ** 2) / 200) + rng.normal(0, 1, n)
    u_out = (step >= REAL_INSPIRATORY).astype(int).astype(str)
    pair = single(comp, text(pressure, 4), text(pressure + rng.normal(0, 0.8, n), 4))
    return assemble(comp, np.arange(1, n + 1).astype(str).astype(object), *pair, rng, {"u_out": u_out})
