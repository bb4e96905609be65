"""The generic train/test splitter driven by a declaration's ``split:`` block.

Every method is deterministic for a given ``split.seed``: the same frame and the same declaration give the
same rows on each side, on any machine. Rows keep their input order on both sides; assigning ids that do
not leak the source order (see :func:`shuffled_ids`) is the caller's job.

The methods:
- ``random``: a uniform sample of rows goes to test; with ``stratify``, each class keeps its share
  (largest-remainder allocation, so the test size is exact).
- ``train_test_split``: scikit-learn's ``train_test_split(df, test_size, random_state=seed, stratify)``
  exactly as MLE-bench v1 calls it, so Kaggle competitions get v1's rows; both sides come back in the
  order scikit-learn returns them (shuffled), which is the order v1 writes.
- ``group``: whole groups of ``group_column`` go to one side; the size counts *groups*, not rows.
- ``time``: the latest rows by ``time_column`` go to test; rows tied with the earliest test time also go
  to test, so no timestamp appears on both sides.
- ``keep_source``: the source already separates train from test; a competition's ``prepare.py`` does it.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd

from mlebench_spec.declarations import Split
from mlebench_spec.errors import ConfigError

__all__ = ["split_frame", "shuffled_ids", "held_out_count"]


def held_out_count(n: int, split: Split) -> int:
    """How many of ``n`` items go to test: ``test_size``, or ``ceil(test_fraction * n)`` as sklearn does.

    >>> held_out_count(10, Split(method="random", test_fraction=0.25))
    3
    """
    if split.test_size is not None:
        count = split.test_size
    elif split.test_fraction is not None:
        count = math.ceil(split.test_fraction * n - 1e-9)  # 0.2 * 5000 must stay 1000
    else:
        raise ConfigError(f"split.method {split.method!r} needs test_fraction or test_size")
    if not 0 < count < n:
        raise ConfigError(f"split would put {count} of {n} items in test; both sides must be non-empty")
    return count


def split_frame(df: pd.DataFrame, split: Split) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Split ``df`` into ``(train, test)`` as ``split`` declares, keeping ``df``'s index.

    Both keep ``df``'s row order, except under ``train_test_split``: its rows come in scikit-learn's
    shuffled order, which is what v1 writes wherever it saves the split frames unsorted.
    """
    rng = np.random.default_rng(split.seed)
    if split.method == "train_test_split":
        return _sklearn_split(df, split)
    if split.method == "random":
        in_test = _random_mask(df, split, rng)
    elif split.method == "group":
        in_test = _group_mask(df, split, rng)
    elif split.method == "time":
        in_test = _time_mask(df, split)
    else:
        raise ConfigError(
            f"split.method {split.method!r} is not done by the generic splitter; the competition's "
            "prepare.py must separate train and test itself"
        )
    return df[~in_test], df[in_test]


def _sklearn_split(df: pd.DataFrame, split: Split) -> tuple[pd.DataFrame, pd.DataFrame]:
    from sklearn.model_selection import train_test_split

    size = split.test_size if split.test_size is not None else split.test_fraction
    stratify = _column(df, split.stratify, "stratify") if split.stratify else None
    train, test = train_test_split(df, test_size=size, random_state=split.seed, stratify=stratify)
    return train, test


def shuffled_ids(n: int, seed: int, start: int = 0) -> np.ndarray:
    """Return a seeded permutation of ``start .. start + n - 1``: ids that say nothing about source order.

    Uses a stream independent of :func:`split_frame`'s, so changing one never changes the other.
    """
    rng = np.random.default_rng([seed, 0x1D5])
    return rng.permutation(n) + start


def _column(df: pd.DataFrame, name: str | None, key: str) -> pd.Series:
    if name is None or name not in df.columns:
        raise ConfigError(
            f"split.{key} {name!r} is not a column of the data (columns: {', '.join(map(str, df.columns))})"
        )
    column = df[name]
    if column.isna().any():
        raise ConfigError(f"split.{key} {name!r} has {int(column.isna().sum())} missing values")
    return column


def _random_mask(df: pd.DataFrame, split: Split, rng: np.random.Generator) -> np.ndarray:
    n = len(df)
    n_test = held_out_count(n, split)
    mask = np.zeros(n, dtype=bool)
    if split.stratify is None:
        mask[rng.choice(n, size=n_test, replace=False)] = True
        return mask
    labels = _column(df, split.stratify, "stratify").to_numpy()
    classes = sorted(pd.unique(labels), key=str)
    positions = [np.flatnonzero(labels == c) for c in classes]
    quotas = np.array([len(p) * n_test / n for p in positions])
    counts = np.floor(quotas).astype(int)
    # Largest remainder first; ties go to the class that sorts first (stable argsort).
    order = np.argsort(-(quotas - counts), kind="stable")
    counts[order[: n_test - counts.sum()]] += 1
    for pos, count in zip(positions, counts, strict=True):
        mask[rng.choice(pos, size=count, replace=False)] = True
    return mask


def _group_mask(df: pd.DataFrame, split: Split, rng: np.random.Generator) -> np.ndarray:
    groups = _column(df, split.group_column, "group_column")
    unique = sorted(pd.unique(groups), key=str)
    n_test = held_out_count(len(unique), split)
    chosen = [unique[i] for i in rng.choice(len(unique), size=n_test, replace=False)]
    return groups.isin(chosen).to_numpy()


def _time_mask(df: pd.DataFrame, split: Split) -> np.ndarray:
    times = _column(df, split.time_column, "time_column")
    n_test = held_out_count(len(df), split)
    cutoff = times.sort_values(kind="stable").iloc[len(df) - n_test]
    mask = (times >= cutoff).to_numpy()
    if mask.all():
        raise ConfigError(
            f"split.time_column {split.time_column!r}: every row ties with the cutoff {cutoff!r}"
        )
    return mask
