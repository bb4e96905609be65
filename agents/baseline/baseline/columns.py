"""Column typing: decide, per input column, whether it is numeric, a date, text, categorical or noise.

Rules (train and test values are looked at together, targets excluded):

* all missing or a single value → ``drop``;
* numeric dtype, or strings that parse as numbers (≥ 95 %) → ``numeric``;
* ISO dates ``YYYY-MM-DD`` → ``date`` (year, month, day, day of week, day of year, ordinal day);
* strings with long mean length (≥ 30 chars) or several words (≥ 3), mostly distinct → ``text``;
* strings that are nearly all distinct and short (ids, codes) → ``drop``;
* other strings → ``categorical``.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

from .detect import is_string_column, looks_like_date

TEXT_MIN_MEAN_CHARS = 30
TEXT_MIN_MEAN_WORDS = 3


@dataclass(frozen=True)
class ColumnPlan:
    """Input columns grouped by kind, plus the reason each dropped column was dropped."""

    numeric: list[str]
    date: list[str]
    text: list[str]
    categorical: list[str]
    dropped: dict[str, str]

    def summary(self) -> str:
        """One line per kind, for the log."""
        return (
            f"numeric={self.numeric} date={self.date} text={self.text} "
            f"categorical={self.categorical} dropped={self.dropped}"
        )


def column_kind(values: pd.Series) -> tuple[str, str]:
    """Return ``(kind, reason)`` for one column (see module docstring).

    Examples:
        >>> column_kind(pd.Series([1.0, None, 3.0]))[0]
        'numeric'
        >>> column_kind(pd.Series(["2020-01-01", "2020-01-02"]))[0]
        'date'
        >>> column_kind(pd.Series(["a", "b", "a", "c"] * 5))[0]
        'categorical'
        >>> column_kind(pd.Series(["this product was great and cheap", "awful taste, never again"]))[0]
        'text'

    """
    known = values.dropna()
    if known.empty:
        return "drop", "all missing"
    if known.nunique() <= 1:
        return "drop", "constant"
    if not is_string_column(values):
        return "numeric", "numeric dtype"
    if looks_like_date(values):
        return "date", "ISO dates"
    texts = known.astype(str)
    as_numbers = pd.to_numeric(texts, errors="coerce")
    if as_numbers.notna().mean() >= 0.95:
        return "numeric", "strings that parse as numbers"
    unique_ratio = texts.nunique() / len(texts)
    mean_chars = texts.str.len().mean()
    mean_words = texts.str.split().str.len().mean()
    if unique_ratio > 0.3 and (mean_chars >= TEXT_MIN_MEAN_CHARS or mean_words >= TEXT_MIN_MEAN_WORDS):
        return "text", f"{mean_chars:.0f} chars / {mean_words:.1f} words on average"
    if unique_ratio > 0.9:
        return "drop", f"id-like ({unique_ratio:.0%} distinct short strings)"
    return "categorical", f"{texts.nunique()} distinct values"


def plan_columns(train: pd.DataFrame, test: pd.DataFrame, exclude: set[str], id_col: str) -> ColumnPlan:
    """Type every column present in both ``train`` and ``test`` except ``exclude``.

    The id column is dropped unless it holds dates (then its calendar parts are features).
    """
    groups: dict[str, list[str]] = {"numeric": [], "date": [], "text": [], "categorical": []}
    dropped: dict[str, str] = {}
    for col in train.columns:
        if col in exclude:
            continue
        if col not in test.columns:
            dropped[col] = "not in test.csv"
            continue
        both = pd.concat([train[col], test[col]], ignore_index=True)
        kind, reason = column_kind(both)
        if col == id_col and kind != "date":
            dropped[col] = "id column"
            continue
        if kind == "drop":
            dropped[col] = reason
        else:
            groups[kind].append(col)
    return ColumnPlan(dropped=dropped, **groups)
