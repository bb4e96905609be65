"""A small stand-in for Kaggle's tabular-playground-series-dec-2021 download (train, test, sample CSVs)."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, labels
from authoring.synthetic import names
from mlebench_spec.declarations import Competition, RealSize

NUMERIC = [
    "Elevation",
    "Aspect",
    "Slope",
    "Horizontal_Distance_To_Hydrology",
    "Vertical_Distance_To_Hydrology",
    "Horizontal_Distance_To_Roadways",
    "Hillshade_9am",
    "Hillshade_Noon",
    "Hillshade_3pm",
    "Horizontal_Distance_To_Fire_Points",
]
BINARY = [f"Wilderness_Area{i}" for i in range(1, 5)] + [f"Soil_Type{i}" for i in range(1, 41)]


def _frame(rng: np.random.Generator, ids: np.ndarray) -> pd.DataFrame:
    n = len(ids)
    columns = {"Id": ids}
    columns.update({c: rng.integers(-50, 3500, size=n) for c in NUMERIC})
    columns.update({c: rng.integers(0, 2, size=n) for c in BINARY})
    return pd.DataFrame(columns)


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, all randomness from ``rng``."""
    train = _frame(rng, np.arange(300))
    train["Cover_Type"] = rng.choice([1, 2, 3, 4, 6, 7], size=len(train))
    train.to_csv(dest / "train.csv", index=False)
    test = _frame(rng, np.arange(300, 340))
    test.to_csv(dest / "test.csv", index=False)
    test[["Id"]].assign(Cover_Type=2).to_csv(dest / "sample_submission.csv", index=False)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: cover types 1-7, 95% right."""
    return labels(comp, size.test_rows, names(*range(1, 8)), rng, p_right=0.95)
