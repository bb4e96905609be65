"""Column roles of a tabular training file: numeric, categorical, free text, or dropped.

The rules look only at the public training data, the way a participant would:

- numeric dtypes are **numeric**;
- a string column with at most ``max(20, 5% of rows)`` distinct values is **categorical**;
- a string column with many distinct values whose cells average at least three words is **text**
  (several text columns are joined into one document per row);
- any other string column (identifiers such as product codes) is **dropped**;
- an id column whose every value parses as an ISO date gives calendar features (year, month, day of
  week, day of year, days since the first date), which count as numeric; other id columns are dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

__all__ = ["TEXT", "ColumnRoles", "add_calendar", "infer_roles"]

TEXT = "__text__"  # name of the joined free-text column added by :func:`ColumnRoles.frame`
_CALENDAR = ("year", "month", "day_of_week", "day_of_year")


@dataclass(frozen=True)
class ColumnRoles:
    """Which input columns feed which encoder."""

    numeric: tuple[str, ...]
    categorical: tuple[str, ...]
    text: tuple[str, ...]
    date_id: str | None = None

    def frame(self, data: pd.DataFrame, origin: pd.Timestamp | None) -> pd.DataFrame:
        """Build the model-ready frame: numeric and calendar columns, categoricals, one text column."""
        out = data[list(self.numeric)].astype("float64") if self.numeric else pd.DataFrame(index=data.index)
        if self.date_id is not None and origin is not None:
            out = pd.concat([out, add_calendar(data[self.date_id], origin)], axis=1)
        for name in self.categorical:
            values = data[name].astype(object)
            out[name] = values.where(values.notna(), np.nan)
        if self.text:
            joined = data[list(self.text)].astype(object).fillna("").astype(str).agg(" ".join, axis=1)
            out[TEXT] = joined.to_numpy(dtype=object)
        return out

    def numeric_names(self) -> list[str]:
        """Numeric column names of :meth:`frame`'s result, calendar columns included."""
        calendar = [f"date_{part}" for part in (*_CALENDAR, "days")] if self.date_id else []
        return [*self.numeric, *calendar]


def _parse_dates(values: pd.Series) -> pd.Series | None:
    text = values.astype(str)
    if not text.str.fullmatch(r"\d{4}-\d{2}-\d{2}([ T].*)?").all():
        return None
    parsed = pd.to_datetime(text, format="ISO8601", errors="coerce")
    return parsed if parsed.notna().all() else None


def add_calendar(values: pd.Series, origin: pd.Timestamp) -> pd.DataFrame:
    """Calendar features of ISO-date strings, with days counted from ``origin``.

    >>> add_calendar(pd.Series(["2020-01-02"]), pd.Timestamp("2020-01-01")).iloc[0].tolist()
    [2020.0, 1.0, 3.0, 2.0, 1.0]
    """
    dates = pd.to_datetime(values.astype(str), format="ISO8601")
    out = pd.DataFrame({f"date_{part}": getattr(dates.dt, part).astype("float64") for part in _CALENDAR})
    out["date_days"] = ((dates - origin).dt.days).astype("float64")
    return out.set_index(values.index)


def infer_roles(train: pd.DataFrame, id_column: str, target_columns: list[str]) -> ColumnRoles:
    """Assign each column of ``train`` a role (see the module docstring).

    >>> frame = pd.DataFrame({"id": [1, 2, 3], "x": [1.0, 2.0, 3.0], "c": ["a", "b", "a"], "y": [0, 1, 0]})
    >>> infer_roles(frame, "id", ["y"])
    ColumnRoles(numeric=('x',), categorical=('c',), text=(), date_id=None)
    """
    n_rows = len(train)
    numeric, categorical, text = [], [], []
    for name in train.columns:
        if name == id_column or name in target_columns:
            continue
        column = train[name]
        if pd.api.types.is_numeric_dtype(column) or pd.api.types.is_bool_dtype(column):
            numeric.append(name)
            continue
        distinct = column.nunique(dropna=True)
        if distinct <= max(20, 0.05 * n_rows):
            categorical.append(name)
        elif column.dropna().astype(str).str.split().str.len().mean() >= 3:
            text.append(name)
    date_id = id_column if id_column in train.columns and _parse_dates(train[id_column]) is not None else None
    return ColumnRoles(tuple(numeric), tuple(categorical), tuple(text), date_id)
