"""japanese-vowels-speaker: tell which of nine speakers said a vowel (UEA JapaneseVowels, source split)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import shuffled_ids
from mlebench.spec.declarations import Competition
from mlebench.spec.errors import DataError

_CHANNELS = 12
_SPEAKERS = [f"s{k}" for k in range(1, 10)]


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write series, train/test/sample submission to ``public`` and the one-hot answers to ``private``."""
    train_cases = _read_ts(raw / "JapaneseVowels_TRAIN.ts")
    test_cases = _read_ts(raw / "JapaneseVowels_TEST.ts")
    ids = shuffled_ids(len(train_cases) + len(test_cases), comp.split.seed, start=1)
    train_ids, test_ids = ids[: len(train_cases)], ids[len(train_cases) :]
    train = pd.DataFrame({"id": train_ids, "speaker": [label for _, label in train_cases]}).sort_values("id")
    test = pd.DataFrame({"id": test_ids, "speaker": [label for _, label in test_cases]}).sort_values("id")
    write_csv(train, public / "train.csv")
    write_csv(test[["id"]], public / "test.csv")
    write_csv(_long_series(train_ids, train_cases), public / "train_series.csv")
    write_csv(_long_series(test_ids, test_cases), public / "test_series.csv")
    uniform = pd.DataFrame({"id": test["id"].to_numpy(), **{s: 1 / len(_SPEAKERS) for s in _SPEAKERS}})
    write_csv(uniform, public / "sample_submission.csv")
    one_hot = pd.DataFrame(
        {
            "id": test["id"].to_numpy(),
            **{s: (test["speaker"] == s).astype("int64").to_numpy() for s in _SPEAKERS},
        }
    )
    write_csv(one_hot, private / "answers.csv")


def _read_ts(path: Path) -> list[tuple[np.ndarray, str]]:
    """Cases of a .ts file: a (time steps, 12) array and the speaker label 's1'..'s9'."""
    cases: list[tuple[np.ndarray, str]] = []
    in_data = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if not in_data:
            in_data = line.lower() == "@data"
            continue
        *channels, label = line.split(":")
        if len(channels) != _CHANNELS or f"s{label}" not in _SPEAKERS:
            raise DataError(f"{path}:{number}: expected {_CHANNELS} channels and a label 1-9")
        values = [np.array(channel.split(","), dtype=np.float64) for channel in channels]
        if len({len(v) for v in values}) != 1:
            raise DataError(f"{path}:{number}: channels have different lengths")
        cases.append((np.column_stack(values), f"s{label}"))
    if not cases:
        raise DataError(f"{path}: no cases after @data")
    return cases


def _long_series(ids: np.ndarray, cases: list[tuple[np.ndarray, str]]) -> pd.DataFrame:
    """One row per (id, time step), sorted by id then t, with channels c01..c12."""
    order = np.argsort(ids, kind="stable")
    frames = []
    for k in order:
        series = cases[k][0]
        frame = pd.DataFrame(series, columns=[f"c{c:02d}" for c in range(1, _CHANNELS + 1)])
        frame.insert(0, "t", np.arange(len(series)))
        frame.insert(0, "id", ids[k])
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)
