"""appliance-power-signatures: tell the appliance from a day of its power draw (UCR ACSF1, source split)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import shuffled_ids
from mlebench.spec.declarations import Competition
from mlebench.spec.errors import DataError

_CLASSES = [f"a{k}" for k in range(10)]
_LENGTH = 1460


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write the series and train/test/sample files to ``public`` and the one-hot answers to ``private``."""
    train_cases = _read_ts(raw / "ACSF1_TRAIN.ts")
    test_cases = _read_ts(raw / "ACSF1_TEST.ts")
    ids = shuffled_ids(len(train_cases) + len(test_cases), comp.split.seed, start=1)
    train_ids, test_ids = ids[: len(train_cases)], ids[len(train_cases) :]
    train = pd.DataFrame({"id": train_ids, "appliance": [c for _, c in train_cases]}).sort_values("id")
    test = pd.DataFrame({"id": test_ids, "appliance": [c for _, c in test_cases]}).sort_values("id")
    write_csv(train, public / "train.csv")
    write_csv(test[["id"]], public / "test.csv")
    write_csv(_long_series(train_ids, train_cases), public / "train_series.csv")
    write_csv(_long_series(test_ids, test_cases), public / "test_series.csv")
    uniform = pd.DataFrame({"id": test["id"].to_numpy(), **{c: 1 / len(_CLASSES) for c in _CLASSES}})
    write_csv(uniform, public / "sample_submission.csv")
    one_hot = {c: (test["appliance"] == c).astype("int64").to_numpy() for c in _CLASSES}
    write_csv(pd.DataFrame({"id": test["id"].to_numpy(), **one_hot}), private / "answers.csv")


def _read_ts(path: Path) -> list[tuple[np.ndarray, str]]:
    """Cases of a univariate .ts file: the 1,460 readings and the class label 'a0'..'a9'."""
    cases: list[tuple[np.ndarray, str]] = []
    in_data = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if not in_data:
            in_data = line.lower() == "@data"
            continue
        values, sep, label = line.rpartition(":")
        readings = np.array(values.split(","), dtype=np.float64) if sep else np.array([])
        if len(readings) != _LENGTH or f"a{label}" not in _CLASSES:
            raise DataError(f"{path}:{number}: expected {_LENGTH} readings and a label 0-9")
        cases.append((readings, f"a{label}"))
    if not cases:
        raise DataError(f"{path}: no cases after @data")
    return cases


def _long_series(ids: np.ndarray, cases: list[tuple[np.ndarray, str]]) -> pd.DataFrame:
    """One row per (id, reading), sorted by id then t, with the power in column ``power``."""
    order = np.argsort(ids, kind="stable")
    frames = [pd.DataFrame({"id": ids[k], "t": np.arange(_LENGTH), "power": cases[k][0]}) for k in order]
    return pd.concat(frames, ignore_index=True)
