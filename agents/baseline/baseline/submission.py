"""Writing ``submission.csv`` in the sample submission's shape: same ids, same order, same columns."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd


def build_submission(
    sample: pd.DataFrame, test_ids: pd.Series, columns: dict[str, np.ndarray]
) -> pd.DataFrame:
    """Arrange predictions (aligned with ``test_ids``) in the sample submission's row and column order.

    Raises:
        ValueError: if a sample id has no prediction or a sample column was not predicted.

    Examples:
        >>> sample = pd.DataFrame({"id": [2, 1], "y": [0, 0]})
        >>> build_submission(sample, pd.Series([1, 2]), {"y": np.array([10, 20])})["y"].tolist()
        [20, 10]

    """
    id_col = sample.columns[0]
    keys = test_ids.astype(str).to_numpy()
    if len(set(keys)) != len(keys):
        raise ValueError("test ids are not unique; cannot align predictions with the sample submission")
    position = pd.Series(np.arange(len(keys)), index=keys)
    wanted = sample[id_col].astype(str)
    missing = wanted[~wanted.isin(position.index)]
    if len(missing):
        raise ValueError(f"{len(missing)} sample ids have no test row, e.g. {missing.iloc[0]!r}")
    rows = position.loc[wanted.to_numpy()].to_numpy()
    out = pd.DataFrame({id_col: sample[id_col].to_numpy()})
    for col in sample.columns[1:]:
        if col not in columns:
            raise ValueError(f"no prediction for submission column {col!r}")
        out[col] = (
            np.asarray(columns[col], dtype=object)[rows]
            if _is_text(columns[col])
            else np.asarray(columns[col])[rows]
        )
    return out


def _is_text(values: np.ndarray) -> bool:
    return np.asarray(values).dtype == object


def write_submission(frame: pd.DataFrame, directory: Path) -> Path:
    """Write ``submission.csv`` (empty strings stay empty) and return its path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / "submission.csv"
    tmp = directory / ".submission.csv.tmp"
    frame.to_csv(tmp, index=False)
    tmp.replace(path)  # whole or not at all: a copy taken while the agent runs never sees half a file
    return path
