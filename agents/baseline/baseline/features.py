"""Feature encoders fitted on training rows and applied unchanged to validation/test rows.

* :class:`DenseEncoder` — a float matrix for gradient boosting: numbers as they are (NaN kept),
  date parts, categoricals as integer codes (flagged for native categorical splits when they have
  few levels, plus a frequency column).
* :class:`SparseEncoder` — a sparse matrix for linear models: standardised numbers with median
  imputation and missing flags, one-hot categoricals and calendar parts, TF-IDF word and char
  n-grams for text columns.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.preprocessing import OneHotEncoder, StandardScaler

from .columns import ColumnPlan

MAX_NATIVE_CATEGORIES = 250  # HistGradientBoosting's native categorical limit is max_bins - 1


def date_parts(values: pd.Series) -> pd.DataFrame:
    """Calendar features of an ISO-date column.

    Examples:
        >>> date_parts(pd.Series(["2024-03-01"])).iloc[0].tolist()
        [2024.0, 3.0, 1.0, 4.0, 61.0, 738946.0]

    """
    d = pd.to_datetime(values, errors="coerce")
    ordinal = d.map(lambda x: float(x.toordinal()) if pd.notna(x) else np.nan)
    return pd.DataFrame(
        {
            "year": d.dt.year,
            "month": d.dt.month,
            "day": d.dt.day,
            "dayofweek": d.dt.day_of_week,
            "dayofyear": d.dt.day_of_year,
            "ordinal": ordinal,
        },
        index=values.index,
    ).astype(float)


def _as_text(values: pd.Series) -> pd.Series:
    return values.astype(object).where(values.notna(), "").astype(str)


class DenseEncoder:
    """Numeric matrix for tree models; :attr:`categorical_mask` marks native categorical columns."""

    def __init__(self, plan: ColumnPlan) -> None:
        self.plan = plan
        self.codes: dict[str, dict[str, int]] = {}
        self.freqs: dict[str, dict[str, float]] = {}
        self.names: list[str] = []
        self.categorical_mask: list[bool] = []

    def fit(self, frame: pd.DataFrame) -> "DenseEncoder":
        """Learn category codes and frequencies from training rows."""
        for col in self.plan.categorical:
            counts = _as_text(frame[col]).value_counts()
            self.codes[col] = {v: i for i, v in enumerate(counts.index[:MAX_NATIVE_CATEGORIES])}
            self.freqs[col] = (counts / counts.sum()).to_dict()
        self.transform(frame)
        return self

    def transform(self, frame: pd.DataFrame) -> np.ndarray:
        """Encode rows; unseen categories become missing."""
        parts, names, mask = [], [], []
        for col in self.plan.numeric:
            parts.append(pd.to_numeric(frame[col], errors="coerce").astype(float).to_numpy())
            names.append(col)
            mask.append(False)
        for col in self.plan.date:
            dp = date_parts(frame[col])
            for part in dp.columns:
                parts.append(dp[part].to_numpy())
                names.append(f"{col}.{part}")
                mask.append(False)
        for col in self.plan.categorical:
            text = _as_text(frame[col])
            parts.append(text.map(self.codes[col]).astype(float).to_numpy())
            names.append(col)
            mask.append(True)
            parts.append(text.map(self.freqs[col]).astype(float).fillna(0.0).to_numpy())
            names.append(f"{col}.freq")
            mask.append(False)
        self.names, self.categorical_mask = names, mask
        if not parts:
            return np.zeros((len(frame), 0))
        return np.column_stack(parts)


class SparseEncoder:
    """Sparse design matrix for linear models (see module docstring)."""

    def __init__(self, plan: ColumnPlan, seed: int, max_features: int, char_max_chars: int) -> None:
        self.plan = plan
        self.seed = seed
        self.max_features = max_features
        self.char_max_chars = char_max_chars
        self.medians: pd.Series | None = None
        self.scaler: StandardScaler | None = None
        self.onehot: OneHotEncoder | None = None
        self.vectorizers: list[tuple[str, TfidfVectorizer]] = []

    def _numeric(self, frame: pd.DataFrame) -> pd.DataFrame:
        cols = {c: pd.to_numeric(frame[c], errors="coerce").astype(float) for c in self.plan.numeric}
        for col in self.plan.date:
            dp = date_parts(frame[col])
            cols.update({f"{col}.{p}": dp[p] for p in ("year", "dayofyear", "ordinal")})
        return pd.DataFrame(cols, index=frame.index)

    def _categories(self, frame: pd.DataFrame) -> pd.DataFrame:
        cols = {c: _as_text(frame[c]) for c in self.plan.categorical}
        for col in self.plan.date:
            dp = date_parts(frame[col])
            cols.update({f"{col}.{p}": dp[p].astype(str) for p in ("month", "dayofweek", "day")})
        return pd.DataFrame(cols, index=frame.index)

    def fit(self, frame: pd.DataFrame) -> "SparseEncoder":
        """Fit imputation, scaling, one-hot and TF-IDF vocabularies on training rows."""
        numeric = self._numeric(frame)
        if numeric.shape[1]:
            self.medians = numeric.median().fillna(0.0)
            self.scaler = StandardScaler().fit(self._numeric_block(numeric))
        categories = self._categories(frame)
        if categories.shape[1]:
            self.onehot = OneHotEncoder(
                handle_unknown="infrequent_if_exist", min_frequency=2, sparse_output=True, dtype=np.float32
            ).fit(categories)
        self.vectorizers = []
        for col in self.plan.text:
            text = _as_text(frame[col])
            word = TfidfVectorizer(
                ngram_range=(1, 2),
                min_df=2,
                max_features=self.max_features,
                sublinear_tf=True,
                dtype=np.float32,
            )
            self.vectorizers.append((col, word.fit(text)))
            if text.str.len().sum() <= self.char_max_chars:
                char = TfidfVectorizer(
                    analyzer="char_wb",
                    ngram_range=(2, 5),
                    min_df=3,
                    max_features=self.max_features,
                    sublinear_tf=True,
                    dtype=np.float32,
                )
                self.vectorizers.append((col, char.fit(text)))
        return self

    def _numeric_block(self, numeric: pd.DataFrame) -> np.ndarray:
        missing = numeric.isna().to_numpy(dtype=float)
        filled = numeric.fillna(self.medians).to_numpy(dtype=float)
        return np.hstack([filled, missing])

    def transform(self, frame: pd.DataFrame) -> sp.csr_matrix:
        """Encode rows as a CSR matrix."""
        blocks = []
        if self.scaler is not None:
            dense = self.scaler.transform(self._numeric_block(self._numeric(frame)))
            blocks.append(sp.csr_matrix(np.clip(np.nan_to_num(dense), -10, 10)))
        if self.onehot is not None:
            blocks.append(self.onehot.transform(self._categories(frame)))
        for col, vec in self.vectorizers:
            blocks.append(vec.transform(_as_text(frame[col])))
        if not blocks:
            return sp.csr_matrix((len(frame), 1), dtype=np.float32)
        return sp.hstack(blocks, format="csr", dtype=np.float32)
