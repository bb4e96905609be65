"""A small stand-in for Kaggle's tabular-playground-series-may-2022 download (train, test, sample CSVs)."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, binary
from mlebench.spec.declarations import Competition, RealSize

SPLIT = {"test_size": 30}


def _frame(rng: np.random.Generator, ids: np.ndarray) -> pd.DataFrame:
    n = len(ids)
    columns = {"id": ids}
    columns.update({f"f_{i:02d}": rng.normal(size=n).round(6) for i in range(7)})
    columns.update({f"f_{i:02d}": rng.integers(0, 12, size=n) for i in range(7, 19)})
    columns.update({f"f_{i:02d}": rng.normal(size=n).round(6) for i in range(19, 27)})
    columns["f_27"] = ["".join(rng.choice(list("ABCDEFGHIJKLMNOPQRST"), size=10)) for _ in range(n)]
    columns["f_28"] = rng.normal(scale=200, size=n).round(6)
    columns.update({f"f_{i:02d}": rng.integers(0, 3, size=n) for i in (29, 30)})
    return pd.DataFrame(columns)


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, all randomness from ``rng``."""
    train = _frame(rng, np.arange(300))
    train["target"] = rng.integers(0, 2, size=len(train))
    train.to_csv(dest / "train.csv", index=False)
    test = _frame(rng, np.arange(300, 340))
    test.to_csv(dest / "test.csv", index=False)
    test[["id"]].assign(target=0.5).to_csv(dest / "sample_submission.csv", index=False)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 answers, noisy scores."""
    return binary(comp, size.test_rows, rng)
