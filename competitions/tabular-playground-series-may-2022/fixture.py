"""A stand-in for Kaggle's tabular-playground-series-may-2022 download (train, test, sample CSVs)."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, binary
from mlebench_spec.declarations import Competition, RealSize


def _frame(rng: np.random.Generator, ids: np.ndarray) -> pd.DataFrame:
    n = len(ids)
    columns = {"id": ids}
    columns.update({f"f_{i:02d}": rng.normal(size=n).round(6) for i in range(7)})
    columns.update({f"f_{i:02d}": rng.integers(0, 12, size=n) for i in range(7, 19)})
    columns.update({f"f_{i:02d}": rng.normal(size=n).round(6) for i in range(19, 27)})
    letters = np.array(list("ABCDEFGHIJKLMNOPQRST"))[rng.integers(0, 20, size=(n, 10))]
    columns["f_27"] = ["".join(row) for row in letters]
    columns["f_28"] = rng.normal(scale=200, size=n).round(6)
    columns.update({f"f_{i:02d}": rng.integers(0, 3, size=n) for i in (29, 30)})
    return pd.DataFrame(columns)


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the download into ``dest``, all randomness from ``rng``.

    train.csv has 100,300 rows: the declared split holds out 100,000 of them (v1's hard-coded size), so
    v1's prepare and ours run on it unchanged, leaving 300 training rows.
    """
    train = _frame(rng, np.arange(100_300))
    train["target"] = rng.integers(0, 2, size=len(train))
    train.to_csv(dest / "train.csv", index=False)
    test = _frame(rng, np.arange(100_300, 100_340))
    test.to_csv(dest / "test.csv", index=False)
    test[["id"]].assign(target=0.5).to_csv(dest / "sample_submission.csv", index=False)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 answers, noisy scores."""
    return binary(comp, size.test_rows, rng)
