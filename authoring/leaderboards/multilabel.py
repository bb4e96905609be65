"""Reference solutions for multi-label competitions: several 0/1 answer columns, each scored on its own.

A :class:`MultiLabelTask` reads ``train.csv`` (input columns plus one 0/1 column per label), ``test.csv``
and, when the competition has one, an **interactions** file: any other public CSV holding the id column, a
key column and a numeric value column, one row per interaction (``ratings.csv``: ``userId``, ``movieId``,
``rating``, ...). Every solution scores each label with the same features; families that learn several
outputs at once (forests, neighbours, networks) fit once, the others fit one binary model per label.

Feature blocks, joined with ``+`` in a solution's feature set:

- ``word`` / ``char``: TF-IDF of the text columns, word 1-2-grams or character 2-4-grams (fitted on the
  training rows the solution sees);
- ``numeric``: the numeric input columns, median-imputed with missing-value indicators;
- ``stats``: per id, the log number of interactions and the mean and spread of their values;
- ``svd<k>``: the id × key incidence matrix (which keys interacted with which ids, train and test ids
  alike: inputs, not answers) reduced to ``k`` dimensions by truncated SVD, rows L2-normalised, so that
  ids sharing many keys lie close together;
- ``all`` is ``word+numeric+stats+svd64``.

Sparse-capable families (logistic regression, naive Bayes) take TF-IDF as it is; the others get it
projected to ``components`` dimensions. Numeric and statistics blocks are standardised. A ``blend``
solution rank-averages the predictions of the :data:`STRONG` members it names.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import sparse
from scipy.stats import rankdata
from sklearn.decomposition import TruncatedSVD
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.impute import SimpleImputer
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler, normalize

from authoring.leaderboards.boosting import Booster
from authoring.leaderboards.models import make_estimator
from authoring.leaderboards.sampling import subsample
from authoring.leaderboards.solution import Solution, solution

__all__ = ["STRONG", "MultiLabelTask", "multilabel_population", "read_interactions"]

_SPARSE = frozenset({"logistic", "mnb"})
_MULTI_OUTPUT = frozenset({"knn", "rf", "et", "mlp"})  # fit all labels at once
_STANDARD_FILES = frozenset({"train.csv", "test.csv", "sample_submission.csv"})
ALL_BLOCKS = ("word", "numeric", "stats", "svd64")
"""What the feature set ``all`` stands for (it may be extended: ``all+svd128``)."""

s = solution
STRONG: dict[str, Solution] = {
    "logistic": s("logistic", "all", C=1.0),
    "lgbm": s("lgbm", "numeric+stats+svd64+word", lr=0.1, leaves=7, rounds=150, col=0.5),
    "hgb": s("hgb", "numeric+stats+svd64", learning_rate=0.1, max_iter=150),
    "mlp": s("mlp", "stats+svd64+word", hidden_layer_sizes=(128,), alpha=1e-2),
    "knn": s("knn", "svd64", n_neighbors=50, weights="distance"),
}
"""The members a ``blend`` may name: the best configuration of each strong family."""


def multilabel_population() -> list[Solution]:
    """Return the reference population: trivial, single-block, combined, tuned, blended.

    >>> population = multilabel_population()
    >>> len(population) >= 100, len({p.team for p in population}) == len(population)
    (True, True)
    """
    blocks = ["word", "char", "numeric", "stats", "svd16", "svd64", "numeric+stats", "word+numeric", "all"]
    linear = [s("logistic", fs, C=c) for fs in blocks for c in (0.1, 1.0, 10.0)]
    linear += [s("logistic", fs, C=c) for fs in ("all", "svd64", "word+numeric") for c in (0.3, 3.0)]
    linear += [s("logistic", fs, C=1.0) for fs in ("char+numeric", "numeric+stats+svd16")]
    linear += [s("logistic", fs, C=c) for fs in ("svd128", "all+svd128", "char+numeric+stats+svd64")
               for c in (0.3, 3.0)]  # fmt: skip
    bayes = [s("mnb", fs, alpha=a) for fs in ("word", "char") for a in (0.1, 0.3, 1.0)]
    neighbours = [s("knn", fs, n_neighbors=k, weights="distance") for fs in ("svd16", "svd64", "svd128")
                  for k in (10, 50)]  # fmt: skip
    neighbours += [s("knn", "svd64", n_neighbors=25, weights="distance")]
    neighbours += [s("knn", "char", n_neighbors=25)]
    dense = ("numeric+stats", "numeric+stats+svd16", "numeric+stats+svd64")
    trees = [s("hgb", fs, learning_rate=0.1, max_iter=it) for fs in dense for it in (50, 150)]
    trees += [s("hgb", "all", learning_rate=0.1, max_iter=100, components=50)]
    trees += [s(m, fs, n_estimators=200, min_samples_leaf=3) for m in ("rf", "et") for fs in dense[1:]]
    networks = [s("mlp", fs, hidden_layer_sizes=(h,), alpha=a) for fs in ("svd64", "stats+svd64+word")
                for h in (64, 128) for a in (1e-4, 1e-2)]  # fmt: skip
    boosting = [
        s("lgbm", fs, lr=0.1, leaves=lv, rounds=150, col=0.5)
        for fs in ("numeric+stats+svd16", "numeric+stats+svd64", "numeric+stats+svd64+word")
        for lv in (7, 15)
    ]
    curves = [s("logistic", "all", frac, 0, C=1.0) for frac in (0.05, 0.1, 0.25, 0.5)]
    curves += [s("hgb", "numeric+stats+svd64", frac, 0, learning_rate=0.1, max_iter=150)
               for frac in (0.1, 0.25, 0.5)]  # fmt: skip
    curves += [s("knn", "svd64", frac, 0, n_neighbors=50, weights="distance") for frac in (0.1, 0.25, 0.5)]
    curves += [s("mnb", "word", frac, 0, alpha=1.0) for frac in (0.1, 0.5)]
    reseeds = [
        s("mlp", "stats+svd64+word", 1.0, seed, hidden_layer_sizes=(128,), alpha=1e-2) for seed in (1, 2)
    ]
    reseeds += [s("rf", "numeric+stats+svd64", 1.0, seed, n_estimators=200, min_samples_leaf=3)
                for seed in (1, 2)]  # fmt: skip
    blends = [s("blend", "all", members=m) for m in
              (("logistic", "knn"), ("logistic", "hgb"), ("logistic", "lgbm", "mlp"),
               ("hgb", "lgbm", "logistic", "mlp"), ("hgb", "knn", "lgbm", "logistic", "mlp"))]  # fmt: skip
    trivial = [s("constant", "none")]
    population = [*trivial, *linear, *bayes, *neighbours, *trees, *networks, *boosting, *curves, *reseeds,
                  *blends]  # fmt: skip
    return list(dict.fromkeys(population))


def read_interactions(public: Path, id_column: str) -> pd.DataFrame | None:
    """Return the competition's interactions as ``(id, key, value)`` columns, or None when it has none.

    The file is the one other public CSV whose header names ``id_column``; its key is the first other
    column and its value the next numeric one.
    """
    found = []
    for path in sorted(public.glob("*.csv")):
        if path.name in _STANDARD_FILES:
            continue
        header = pd.read_csv(path, nrows=0).columns
        if id_column in header:
            found.append(path)
    if not found:
        return None
    if len(found) > 1:
        raise ValueError(f"{public}: several interaction files name {id_column!r}: {[p.name for p in found]}")
    table = pd.read_csv(found[0])
    others = [c for c in table.columns if c != id_column]
    values = [c for c in others[1:] if pd.api.types.is_numeric_dtype(table[c])]
    if not others or not values:
        raise ValueError(f"{found[0]}: needs a key column and a numeric value column beside {id_column!r}")
    return pd.DataFrame(
        {"id": table[id_column].astype(str), "key": table[others[0]], "value": table[values[0]]}
    )


@dataclass
class MultiLabelTask:
    """A multi-label competition's public data, ready for reference solutions."""

    id_column: str
    labels: tuple[str, ...]
    train: pd.DataFrame
    targets: np.ndarray  # (n_train, n_labels) of 0/1
    test: pd.DataFrame
    interactions: pd.DataFrame | None
    kind: str = "multilabel"
    _cache: dict[str, np.ndarray] = field(default_factory=dict, repr=False)

    @classmethod
    def load(cls, public: Path, id_column: str, labels: list[str]) -> MultiLabelTask:
        """Read ``train.csv``, ``test.csv`` and the interactions file of ``public``."""
        text = {id_column: str}
        train = pd.read_csv(public / "train.csv", dtype=text, keep_default_na=False, na_values=[""])
        test = pd.read_csv(public / "test.csv", dtype=text, keep_default_na=False, na_values=[""])
        targets = train[labels].to_numpy()
        if not np.isin(targets, (0, 1)).all():
            raise ValueError(f"{public / 'train.csv'}: label columns must hold 0 or 1")
        return cls(id_column, tuple(labels), train, targets.astype(np.int64), test,
                   read_interactions(public, id_column))  # fmt: skip

    @property
    def _inputs(self) -> list[str]:
        return [c for c in self.test.columns if c != self.id_column]

    def population(self) -> list[Solution]:
        """Return the reference population."""
        return multilabel_population()

    @property
    def notes(self) -> tuple[str, ...]:
        """Report lines describing this population (``leaderboard.md``)."""
        source = "no interactions file" if self.interactions is None else "an interactions file"
        return (
            "- Multi-label entries (`authoring/leaderboards/multilabel.py`, not `population.py`): one score",
            f"  per label column ({len(self.labels)} labels; {source}). Feature blocks: TF-IDF of the text",
            "  (`word`, `char`), the numeric columns, per-id interaction statistics (`stats`) and a",
            "  truncated SVD of the id-by-key incidence matrix (`svd<k>`: ids that share raters lie close);",
            "  `all` is `word+numeric+stats+svd64`. Logistic regression, naive Bayes, neighbours, forests,",
            "  boosting (scikit-learn and LightGBM) and networks on them, learning curves, reseeds, and",
            "  `blend` entries that rank-average the best configuration of several families.",
        )

    def predict(self, solution: Solution) -> pd.DataFrame:
        """Fit ``solution`` on its share of the training rows and return its submission frame."""
        scores = self._scores(solution)
        frame = pd.DataFrame({self.id_column: self.test[self.id_column].to_numpy()})
        for j, label in enumerate(self.labels):
            frame[label] = scores[:, j]
        return frame

    def _scores(self, solution: Solution) -> np.ndarray:
        if solution.model == "blend":
            ranks = [rankdata(self._member(m), axis=0) for m in solution.options["members"]]
            return np.mean(ranks, axis=0) / len(self.test)
        rows = subsample(len(self.train), solution.train_fraction, solution.seed)
        y = self.targets[rows]
        if solution.model == "constant":
            return np.tile(y.mean(axis=0), (len(self.test), 1))
        x, test = self._features(solution, rows)
        family = solution.model
        if family in _MULTI_OUTPUT:
            model = make_estimator(solution, "classification", probabilities=True, n_samples=len(rows))
            model.fit(x, y)
            return _positive(model.predict_proba(test), getattr(model, "classes_", None), len(self.labels))
        out = np.zeros((len(self.test), len(self.labels)))
        for j in range(len(self.labels)):
            if len(np.unique(y[:, j])) < 2:  # a rare label absent from a small training share
                out[:, j] = y[0, j]
            elif family == "lgbm":
                columns = [f"f{i}" for i in range(x.shape[1])]
                booster = Booster("lgbm", "classification", solution.options, solution.seed)
                booster.fit(pd.DataFrame(x, columns=columns), y[:, j], [])
                out[:, j] = booster.predict(pd.DataFrame(test, columns=columns))
            else:
                model = make_estimator(solution, "classification", probabilities=True, n_samples=len(rows))
                out[:, j] = model.fit(x, y[:, j]).predict_proba(test)[:, 1]
        return out

    def _member(self, name: str) -> np.ndarray:
        """Return a :data:`STRONG` member's test scores, computed once per task (blends share members)."""
        key = f"member:{name}"
        if key not in self._cache:
            self._cache[key] = self._scores(STRONG[name])
        return self._cache[key]

    def _features(self, solution: Solution, rows: np.ndarray):
        """Return the training rows' and the test rows' feature matrices for ``solution``."""
        parts = solution.features.split("+")
        blocks = [b for part in parts for b in (ALL_BLOCKS if part == "all" else (part,))]
        keep_sparse = solution.model in _SPARSE
        train_parts, test_parts = [], []
        for block in dict.fromkeys(blocks):
            if block in ("word", "char"):
                a, b = self._text(block, rows, solution, keep_sparse)
            else:
                a, b = self._dense(block, rows)
            train_parts.append(a)
            test_parts.append(b)
        if keep_sparse:
            return (
                sparse.hstack([sparse.csr_matrix(p) for p in train_parts]).tocsr(),
                sparse.hstack([sparse.csr_matrix(p) for p in test_parts]).tocsr(),
            )
        return np.hstack(train_parts), np.hstack(test_parts)

    def _text(self, block: str, rows: np.ndarray, solution: Solution, keep_sparse: bool):
        columns = [c for c in self._inputs if not pd.api.types.is_numeric_dtype(self.test[c])]
        joined = {
            side: frame[columns].fillna("").astype(str).agg(" ".join, axis=1).to_numpy()
            for side, frame in (("train", self.train.iloc[rows]), ("test", self.test))
        }
        if block == "char":
            tfidf = TfidfVectorizer(analyzer="char_wb", ngram_range=(2, 4), min_df=2, sublinear_tf=True)
        else:
            tfidf = TfidfVectorizer(ngram_range=(1, 2), min_df=1, sublinear_tf=True)
        a = tfidf.fit_transform(joined["train"])
        b = tfidf.transform(joined["test"])
        if solution.model == "mnb" or keep_sparse:
            return a, b
        size = max(1, min(int(solution.options.get("components", 100)), a.shape[1] - 1))
        svd = TruncatedSVD(size, random_state=solution.seed).fit(a)
        return svd.transform(a), svd.transform(b)

    def _dense(self, block: str, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Return a dense block cut to ``rows`` and the test rows (computed once for every id)."""
        if block not in self._cache:
            self._cache[block] = self._block(block)
        values = self._cache[block]
        n = len(self.train)
        return values[:n][rows], values[n:]

    def _block(self, block: str) -> np.ndarray:
        frames = pd.concat([self.train[self._inputs], self.test[self._inputs]], ignore_index=True)
        ids = pd.concat([self.train[self.id_column], self.test[self.id_column]], ignore_index=True)
        if block == "numeric":
            numeric = frames.select_dtypes("number")
            if numeric.empty:
                raise ValueError("feature block 'numeric': the inputs have no numeric column")
            n = len(self.train)  # impute and scale with the training rows' statistics
            pipe = make_pipeline(SimpleImputer(strategy="median", add_indicator=True), StandardScaler())
            pipe.fit(numeric.iloc[:n])
            return pipe.transform(numeric)
        if self.interactions is None:
            raise ValueError(f"feature block {block!r} needs an interactions file; this competition has none")
        inter = self.interactions
        index = pd.Index(ids.astype(str))
        position = index.get_indexer(inter["id"])
        inter = inter[position >= 0]
        position = position[position >= 0]
        if block == "stats":
            grouped = inter.assign(row=position).groupby("row")["value"]
            stats = pd.DataFrame(
                {"count": np.log1p(grouped.size()), "mean": grouped.mean(), "std": grouped.std().fillna(0.0)}
            ).reindex(range(len(index)))
            stats = stats.fillna({"count": 0.0, "mean": stats["mean"].mean(), "std": 0.0})
            return StandardScaler().fit_transform(stats.to_numpy())
        if block.startswith("svd"):
            keys = pd.factorize(inter["key"])[0]
            k = max(1, min(int(block[3:]), keys.max()))  # never more dimensions than keys allow
            incidence = sparse.csr_matrix(
                (np.ones(len(inter)), (position, keys)), shape=(len(index), keys.max() + 1)
            )
            incidence.data[:] = 1.0  # duplicate interactions count once
            reduced = TruncatedSVD(k, random_state=0).fit_transform(incidence)
            return normalize(reduced)
        raise ValueError(f"unknown feature block {block!r}")


def _positive(proba, classes, n_labels: int) -> np.ndarray:
    """Return each label's probability of 1 from a multi-output ``predict_proba``.

    That is a list of per-label arrays (columns ordered as that label's ``classes``) or one
    ``(n, n_labels)`` array (multi-label networks).

    >>> proba = [np.array([[0.2, 0.8]]), np.array([[1.0]]), np.array([[1.0]])]
    >>> _positive(proba, [np.array([0, 1]), np.array([0]), np.array([1])], 3).tolist()
    [[0.8, 0.0, 1.0]]
    """
    if isinstance(proba, list):
        return np.column_stack(
            [
                p[:, list(c).index(1)] if 1 in c else np.zeros(len(p))
                for p, c in zip(proba, classes, strict=True)
            ]
        )
    proba = np.asarray(proba)
    if proba.shape[1] != n_labels:
        raise ValueError(f"expected {n_labels} label probabilities, got {proba.shape[1]}")
    return proba
