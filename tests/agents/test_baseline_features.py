"""The baseline's sparse encoder: fitted once per set of rows, with the floats a fresh TF-IDF fit gives."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.feature_extraction.text import TfidfVectorizer

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "agents" / "baseline"))

from baseline.columns import ColumnPlan  # noqa: E402
from baseline.features import SparseEncoder, fitted_sparse_encoder  # noqa: E402


def _reviews(n: int, seed: int) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    words = np.array("good bad tasty stale crisp soggy sweet salty fresh old coffee tea bread jam".split())
    text = [" ".join(rng.choice(words, rng.integers(3, 40))) + rng.choice(["!", ".", "?!"]) for _ in range(n)]
    return pd.DataFrame({"review": text, "stars": rng.integers(1, 6, n).astype(float)})


PLAN = ColumnPlan(numeric=["stars"], date=[], text=["review"], categorical=[], dropped={})


def _same(a, b) -> bool:
    return (
        a.dtype == b.dtype
        and np.array_equal(a.indptr, b.indptr)
        and np.array_equal(a.indices, b.indices)
        and np.array_equal(a.data, b.data)
    )


def test_text_blocks_equal_a_fresh_tfidf_fit_bit_for_bit():
    train, test = _reviews(600, 0), _reviews(200, 1)
    text_only = ColumnPlan(numeric=[], date=[], text=["review"], categorical=[], dropped={})
    encoder = SparseEncoder(text_only, seed=0, max_features=5000, char_max_chars=10**9)
    fitted_rows = encoder.fit_transform(train)
    word = TfidfVectorizer(
        ngram_range=(1, 2), min_df=2, max_features=5000, sublinear_tf=True, dtype=np.float32
    )
    char = TfidfVectorizer(
        analyzer="char_wb",
        ngram_range=(2, 5),
        min_df=3,
        max_features=5000,
        sublinear_tf=True,
        dtype=np.float32,
    )
    word.fit(train["review"])
    char.fit(train["review"])
    for rows, matrix in ((train, fitted_rows), (test, encoder.transform(test))):
        expected = [word.transform(rows["review"]), char.transform(rows["review"])]
        widths = np.cumsum([0] + [m.shape[1] for m in expected])
        for block, (lo, hi) in zip(expected, zip(widths[:-1], widths[1:], strict=True), strict=True):
            part = matrix[:, lo:hi].tocsr()
            part.sort_indices()
            assert _same(part, block)
    assert matrix.shape[1] == widths[-1]


def test_an_encoder_is_fitted_once_per_row_contents():
    train = _reviews(300, 2)
    first = fitted_sparse_encoder(PLAN, 0, 5000, 10**9, train)
    same_rows = fitted_sparse_encoder(PLAN, 0, 5000, 10**9, train.set_axis(np.arange(300) + 1000))
    assert same_rows is first
    assert first.transform(train) is first.transform(train.copy())  # the training rows' matrix is kept
    changed = train.copy()
    changed.loc[7, "review"] = "a review no other row has"
    other = fitted_sparse_encoder(PLAN, 0, 5000, 10**9, changed)
    assert other is not first
    assert not _same(other.transform(changed), first.transform(train))
    assert fitted_sparse_encoder(PLAN, 1, 5000, 10**9, train) is not first  # another seed, another fit
    fresh = SparseEncoder(PLAN, 0, 5000, 10**9).fit(changed).transform(changed)
    assert _same(other.transform(changed), fresh)
