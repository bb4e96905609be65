"""Auxiliary tables (``train_<name>.csv`` / ``test_<name>.csv``) turned into per-id features.

A long-format table (several rows per id, e.g. a time series per recording) is summarised per id:
mean, std, min, max, first and last of every numeric column, plus the row count. A table with one
row per id is joined as it is (numeric columns only).
"""

from __future__ import annotations

import pandas as pd

from .data import AuxPair

STATS = ("mean", "std", "min", "max", "first", "last")


def aux_features(pair: AuxPair, id_col: str) -> tuple[pd.DataFrame, pd.DataFrame, str] | None:
    """Per-id feature frames (indexed by id) for train and test, and a note for the log.

    Returns ``None`` when the table has no ``id_col`` or no numeric column.
    """
    if id_col not in pair.train.columns or id_col not in pair.test.columns:
        return None
    numeric = [
        c
        for c in pair.train.columns
        if c != id_col and c in pair.test.columns and pd.api.types.is_numeric_dtype(pair.train[c])
    ]
    if not numeric:
        return None
    rows_per_id = len(pair.train) / max(pair.train[id_col].nunique(), 1)
    if rows_per_id <= 1.0:
        frames = tuple(_one_row_per_id(t, id_col, numeric, pair.name) for t in (pair.train, pair.test))
        return frames[0], frames[1], f"{pair.name}: one row per id, joined {len(numeric)} numeric columns"
    frames = tuple(_aggregate(t, id_col, numeric, pair.name) for t in (pair.train, pair.test))
    note = (
        f"{pair.name}: long format ({rows_per_id:.1f} rows per id), "
        f"{len(numeric)} numeric columns x {STATS} + count"
    )
    return frames[0], frames[1], note


def _one_row_per_id(table: pd.DataFrame, id_col: str, numeric: list[str], name: str) -> pd.DataFrame:
    out = table.drop_duplicates(id_col).set_index(id_col)[numeric]
    out.columns = [f"{name}__{c}" for c in numeric]
    return out


def _aggregate(table: pd.DataFrame, id_col: str, numeric: list[str], name: str) -> pd.DataFrame:
    grouped = table.groupby(id_col, sort=False)[numeric]
    out = grouped.agg(list(STATS))
    out.columns = [f"{name}__{col}__{stat}" for col, stat in out.columns]
    out[f"{name}__count"] = grouped.size()
    return out.astype(float)


def join_aux(frame: pd.DataFrame, feats: pd.DataFrame, id_col: str) -> pd.DataFrame:
    """Left-join per-id features onto ``frame`` by its id column, keeping row order."""
    keys = frame[id_col]
    feats = feats.copy()
    feats.index = feats.index.astype(str)
    joined = feats.reindex(keys.astype(str).to_numpy())
    joined.index = frame.index
    return pd.concat([frame, joined], axis=1)
