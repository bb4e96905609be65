"""Feature encoders fitted on training rows and applied unchanged to validation/test rows.

* :class:`DenseEncoder` — a float matrix for gradient boosting: numbers as they are (NaN kept),
  date parts, categoricals as integer codes (flagged for native categorical splits when they have
  few levels, plus a frequency column).
* :class:`SparseEncoder` — a sparse matrix for linear models: standardised numbers with median
  imputation and missing flags, one-hot categoricals and calendar parts, TF-IDF word and char
  n-grams for text columns.

Sparse encoders are fitted once per set of rows: :func:`fitted_sparse_encoder` hands out the encoder already
fitted on the same columns' contents (so do competing linear models on one fold, and every target of a
multi-label task refitted on all rows), and an encoder keeps what it last encoded. Fitting TF-IDF
vocabularies was most of the baseline's time on text tasks; the matrices are exactly the ones a fresh fit
gives.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.feature_extraction.text import CountVectorizer, TfidfTransformer
from sklearn.preprocessing import OneHotEncoder, StandardScaler

from .columns import ColumnPlan

MAX_NATIVE_CATEGORIES = 250  # HistGradientBoosting's native categorical limit is max_bins - 1
KEPT_ENCODERS = 4  # fitted sparse encoders kept for reuse (most recently used)
KEPT_MATRICES = 3  # matrices each keeps: its training rows, validation or test rows
_FITTED: OrderedDict[tuple, "SparseEncoder"] = OrderedDict()


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


def content_key(frame: pd.DataFrame, columns: list[str]) -> tuple:
    """Return a key for the values of ``columns`` in ``frame``, row by row (the index is ignored).

    >>> a = pd.DataFrame({"t": ["x", "y"], "n": [1, 2]})
    >>> content_key(a, ["t"]) == content_key(a.set_axis([5, 6]), ["t"])
    True
    >>> content_key(a, ["t"]) == content_key(a[::-1], ["t"])
    False
    """
    digest = hashlib.blake2b(digest_size=20)
    for col in columns:
        digest.update(str(frame[col].dtype).encode())
        digest.update(pd.util.hash_pandas_object(frame[col], index=False).to_numpy().tobytes())
    return (tuple(columns), len(frame), digest.hexdigest())


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
        self.vectorizers: list[tuple[str, CountVectorizer, TfidfTransformer]] = []
        self.encoded: OrderedDict[tuple, sp.csr_matrix] = OrderedDict()

    @property
    def columns(self) -> list[str]:
        """Every input column the encoder reads."""
        return [*self.plan.numeric, *self.plan.date, *self.plan.categorical, *self.plan.text]

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
        self.fit_transform(frame)
        return self

    def fit_transform(self, frame: pd.DataFrame) -> sp.csr_matrix:
        """Fit on training rows and return their matrix, counting each text's n-grams once (as ``fit``)."""
        return self._fit(frame, content_key(frame, self.columns))

    def _fit(self, frame: pd.DataFrame, key: tuple) -> sp.csr_matrix:
        """:meth:`fit_transform` for a frame whose :func:`content_key` is ``key``."""
        numeric = self._numeric(frame)
        if numeric.shape[1]:
            self.medians = numeric.median().fillna(0.0)
            self.scaler = StandardScaler().fit(self._numeric_block(numeric))
        categories = self._categories(frame)
        if categories.shape[1]:
            self.onehot = OneHotEncoder(
                handle_unknown="infrequent_if_exist", min_frequency=2, sparse_output=True, dtype=np.float32
            ).fit(categories)
        self.vectorizers, text_blocks = [], []
        for col in self.plan.text:
            text = _as_text(frame[col])
            kinds = [{"ngram_range": (1, 2), "min_df": 2}]
            if text.str.len().sum() <= self.char_max_chars:
                kinds.append({"analyzer": "char_wb", "ngram_range": (2, 5), "min_df": 3})
            for kind in kinds:
                counter = CountVectorizer(**kind, max_features=self.max_features, dtype=np.float32)
                counts = counter.fit_transform(text)
                counts.sort_indices()  # as transform() leaves them: row norms then sum in the same order
                weights = TfidfTransformer(sublinear_tf=True).fit(counts)
                self.vectorizers.append((col, counter, weights))
                text_blocks.append(weights.transform(counts, copy=False))
        self.encoded.clear()
        matrix = self._transform(frame, text_blocks)
        self.encoded[key] = matrix
        return matrix

    def _numeric_block(self, numeric: pd.DataFrame) -> np.ndarray:
        missing = numeric.isna().to_numpy(dtype=float)
        filled = numeric.fillna(self.medians).to_numpy(dtype=float)
        return np.hstack([filled, missing])

    def transform(self, frame: pd.DataFrame) -> sp.csr_matrix:
        """Encode rows as a CSR matrix (rows encoded recently get the same object back: do not change it)."""
        key = content_key(frame, self.columns)
        if key in self.encoded:
            self.encoded.move_to_end(key)
            return self.encoded[key]
        matrix = self._transform(frame)
        self.encoded[key] = matrix
        while len(self.encoded) > KEPT_MATRICES:
            self.encoded.popitem(last=False)
        return matrix

    def _transform(self, frame: pd.DataFrame, text_blocks: list | None = None) -> sp.csr_matrix:
        blocks = []
        if self.scaler is not None:
            dense = self.scaler.transform(self._numeric_block(self._numeric(frame)))
            blocks.append(sp.csr_matrix(np.clip(np.nan_to_num(dense), -10, 10)))
        if self.onehot is not None:
            blocks.append(self.onehot.transform(self._categories(frame)))
        if text_blocks is None:
            text_blocks = [w.transform(c.transform(_as_text(frame[col]))) for col, c, w in self.vectorizers]
        blocks.extend(text_blocks)
        if not blocks:
            return sp.csr_matrix((len(frame), 1), dtype=np.float32)
        return sp.hstack(blocks, format="csr", dtype=np.float32)


def fitted_sparse_encoder(
    plan: ColumnPlan, seed: int, max_features: int, char_max_chars: int, frame: pd.DataFrame
) -> SparseEncoder:
    """Return a :class:`SparseEncoder` fitted on ``frame``: one fitted on the same contents, or a new one."""
    encoder = SparseEncoder(plan, seed, max_features, char_max_chars)
    content = content_key(frame, encoder.columns)
    key = (
        tuple(plan.numeric),
        tuple(plan.date),
        tuple(plan.categorical),
        tuple(plan.text),
        seed,
        max_features,
        char_max_chars,
        content,
    )
    if key in _FITTED:
        _FITTED.move_to_end(key)
        return _FITTED[key]
    encoder._fit(
        frame, content
    )  # keeps the training rows' matrix: the caller's transform(frame) is not counted again
    _FITTED[key] = encoder
    while len(_FITTED) > KEPT_ENCODERS:
        _FITTED.popitem(last=False)
    return encoder
