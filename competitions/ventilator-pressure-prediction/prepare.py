"""ventilator-pressure-prediction: MLE-bench v1's split of Kaggle's train.csv by breath.

v1 groups the rows by breath_id (ascending), splits the list of breaths with TTS(0.1, seed 0), and
concatenates each side's breaths in the order scikit-learn returns them, every breath keeping its row
order. Row ids are renumbered 1..n on each side. Public: train.csv, test.csv (without pressure),
sample_submission.csv (pressure 0); private: test.csv. Floats are written with ``%.10g``.
"""

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench_spec.declarations import Competition

_DTYPES = {
    "id": "int64",
    "breath_id": "int64",
    "R": "int64",
    "C": "int64",
    "time_step": "float64",
    "u_in": "float64",
    "u_out": "int64",
    "pressure": "float64",
}


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from the raw download, as the module docstring says."""
    frame = pd.read_csv(raw / "train.csv", dtype=_DTYPES)
    breaths = np.sort(frame["breath_id"].unique())
    size = comp.split.test_size or comp.split.test_fraction
    train_breaths, test_breaths = train_test_split(breaths, test_size=size, random_state=comp.split.seed)
    train, test = _take(frame, train_breaths), _take(frame, test_breaths)
    _write(train, public / "train.csv")
    _write(test.drop(columns=["pressure"]), public / "test.csv")
    _write(test, private / comp.submission.answers)
    _write(test[["id"]].assign(pressure=0), public / "sample_submission.csv")


def _take(frame: pd.DataFrame, breaths: np.ndarray) -> pd.DataFrame:
    """Return the rows of ``breaths``, breath after breath in the given order, with ids renumbered from 1."""
    rank = pd.Series(np.arange(len(breaths)), index=breaths)
    rows = frame[frame["breath_id"].isin(breaths)]
    rows = rows.iloc[np.argsort(rank[rows["breath_id"]].to_numpy(), kind="stable")]
    return rows.assign(id=np.arange(1, len(rows) + 1))


def _write(frame: pd.DataFrame, path: Path) -> None:
    frame.to_csv(path, index=False, float_format="%.10g", lineterminator="\n")
