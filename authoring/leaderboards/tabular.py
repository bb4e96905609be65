"""Reference solutions for tabular competitions (numeric, categorical and free-text columns).

A :class:`TabularTask` reads ``train.csv`` and ``test.csv``, assigns column roles (:mod:`.columns`) and
turns a :class:`~.solution.Solution` into a scikit-learn pipeline: feature encoding chosen by the
solution's feature set and model family, then the estimator from :mod:`.models`.

Feature sets:

- ``all``: every usable column;
- ``numeric``: the numeric columns only (no categorical, text or calendar columns);
- ``few``: the three numeric columns most correlated with the target on the rows the solution sees;
- ``text-word`` / ``text-char``: only the free text, as word 1-2-gram or character 2-4-gram TF-IDF.

Encodings follow the family: scaled one-hot for linear, distance and neural models; ordinal codes for
trees; sparse TF-IDF for linear models and multinomial naive Bayes, and a truncated SVD projection of it
(``components`` dimensions) for the rest. Regression targets that are positive and right-skewed are
learned on a log scale, others on their own scale; a solution's ``target`` (``log`` or ``raw``) overrides
that choice.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from scipy.stats import skew
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.compose import ColumnTransformer, TransformedTargetRegressor
from sklearn.decomposition import TruncatedSVD
from sklearn.feature_extraction.text import TfidfVectorizer
from sklearn.impute import SimpleImputer
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import FunctionTransformer, OneHotEncoder, OrdinalEncoder, StandardScaler

from authoring.leaderboards.columns import TEXT, ColumnRoles, infer_roles
from authoring.leaderboards.models import SCALED, SPARSE_OK, make_estimator
from authoring.leaderboards.outputs import Output
from authoring.leaderboards.population import tabular_population
from authoring.leaderboards.sampling import subsample
from authoring.leaderboards.solution import Solution
from authoring.leaderboards.text import MODELS as TEXT_MODELS
from authoring.leaderboards.text import fit_predict, strong_text_population

__all__ = ["TabularTask"]


@dataclass
class TabularTask:
    """A tabular competition's public data, ready for reference solutions."""

    output: Output
    roles: ColumnRoles
    train: pd.DataFrame
    target: np.ndarray
    test: pd.DataFrame
    test_ids: pd.Series
    kind: str = "tabular"

    @classmethod
    def load(cls, public: Path, output: Output) -> TabularTask:
        """Read ``public/train.csv`` and ``public/test.csv``."""
        ids = {output.id_column: str}  # ids are text: "007" stays "007"
        train = pd.read_csv(public / "train.csv", dtype=ids)
        test = pd.read_csv(public / "test.csv", dtype=ids)
        roles = infer_roles(train, output.id_column, list(output.columns))
        origin = None
        if roles.date_id:
            origin = pd.to_datetime(train[roles.date_id].astype(str), format="ISO8601").min()
        target = train[output.columns[0]].to_numpy()
        return cls(
            output,
            roles,
            roles.frame(train, origin),
            target,
            roles.frame(test, origin),
            test[output.id_column],
        )

    @property
    def feature_sets(self) -> list[str]:
        """The feature sets that differ from each other on this data."""
        sets = ["all"]
        if self.roles.text:
            sets += ["text-word", "text-char"]
        if (self.roles.categorical or self.roles.text or self.roles.date_id) and self.roles.numeric:
            sets.append("numeric")
        if len(self.roles.numeric_names()) > 3:
            sets.append("few")
        return sets

    def population(self) -> list[Solution]:
        """Return the reference population for this competition."""
        text_only = bool(self.roles.text) and not self.roles.numeric_names() and not self.roles.categorical
        log_target = self.output.task == "regression" and _skewed_positive(self.target)
        population = tabular_population(
            self.output.task, self.feature_sets, text_only=text_only, log_target=log_target
        )
        return population + strong_text_population() if text_only else population

    def predict(self, solution: Solution) -> pd.DataFrame:
        """Fit ``solution`` on its share of the training rows and return its submission frame."""
        labels = self.target if self.output.task == "classification" else None
        rows = subsample(len(self.train), solution.train_fraction, solution.seed, labels)
        x, y = self.train.iloc[rows], self.target[rows]
        if solution.model == "constant":  # needs no features; skip encoding them
            x, test = (
                pd.DataFrame({"none": np.zeros(len(rows))}),
                pd.DataFrame({"none": np.zeros(len(self.test))}),
            )
            model = self._estimator(solution, y).fit(x, y)
            return self.output.submission(self.test_ids, model, test)
        if solution.model in TEXT_MODELS:  # tuned text models (authoring.leaderboards.text)
            proba, classes = fit_predict(solution, list(x[TEXT]), y, list(self.test[TEXT]))
            return self.output.frame(self.test_ids, self.output.probabilities(proba, classes))
        model = make_pipeline(self._encoder(solution, x, y), self._estimator(solution, y))
        model.fit(x, y)
        return self.output.submission(self.test_ids, model, self.test)

    def _estimator(self, solution: Solution, y: np.ndarray):
        probabilities = self.output.mode != "label"
        estimator = make_estimator(solution, self.output.task, probabilities=probabilities, n_samples=len(y))
        if self.output.task != "regression":
            return estimator
        target = solution.options.get("target") or ("log" if _skewed_positive(y) else "raw")
        steps = [FunctionTransformer(np.log1p, np.expm1, check_inverse=False)] if target == "log" else []
        return TransformedTargetRegressor(estimator, transformer=make_pipeline(*steps, StandardScaler()))

    def _encoder(self, solution: Solution, x: pd.DataFrame, y: np.ndarray) -> ColumnTransformer:
        family, features = solution.model, solution.features
        numeric = self.roles.numeric_names()
        categorical = list(self.roles.categorical)
        text = bool(self.roles.text)
        if features == "numeric":
            numeric, categorical, text = list(self.roles.numeric), [], False
        elif features == "few":
            numeric, categorical, text = _most_correlated(x[numeric], y, 3), [], False
        elif features.startswith("text-"):
            numeric, categorical = [], []
        scaled = family in SCALED or family == "gnb"
        parts = []
        if numeric:
            steps = [SimpleImputer(strategy="median", add_indicator=True)]
            parts.append(("num", make_pipeline(*steps, *([StandardScaler()] if scaled else [])), numeric))
        if categorical:
            if scaled:
                encoder = OneHotEncoder(handle_unknown="ignore", min_frequency=3, sparse_output=False)
                cat = make_pipeline(SimpleImputer(strategy="constant", fill_value="(missing)"), encoder)
            else:
                cat = OrdinalEncoder(
                    handle_unknown="use_encoded_value", unknown_value=-1, encoded_missing_value=-1
                )
            parts.append(("cat", cat, categorical))
        if text:
            parts.append(("text", self._text_encoder(solution, features), TEXT))
        return ColumnTransformer(parts, sparse_threshold=1.0 if family in SPARSE_OK | {"mnb"} else 0.0)

    def _text_encoder(self, solution: Solution, features: str) -> Pipeline:
        if features == "text-char":
            tfidf = TfidfVectorizer(
                analyzer="char_wb",
                ngram_range=(2, 4),
                min_df=3,
                sublinear_tf=True,
                max_features=30000,
                dtype=np.float32,
            )
        else:
            tfidf = TfidfVectorizer(
                ngram_range=(1, 2), min_df=2, sublinear_tf=True, max_features=60000, dtype=np.float32
            )
        if solution.model in SPARSE_OK | {"mnb"} and "components" not in solution.options:
            return make_pipeline(tfidf)
        components = int(solution.options.get("components", 100))
        return make_pipeline(tfidf, _Projection(components, solution.seed))


class _Projection(TransformerMixin, BaseEstimator):
    """Truncated SVD to at most ``components`` dimensions (fewer when the vocabulary is smaller)."""

    def __init__(self, components: int = 100, seed: int = 0):
        self.components = components
        self.seed = seed

    def fit(self, x, y=None):
        """Fit the SVD on ``x``."""
        size = max(1, min(self.components, x.shape[1] - 1))
        self.svd_ = TruncatedSVD(size, random_state=self.seed).fit(x)
        return self

    def transform(self, x):
        """Project ``x``."""
        return self.svd_.transform(x)


def _skewed_positive(y: np.ndarray) -> bool:
    y = np.asarray(y, dtype=np.float64)
    return bool((y > 0).all() and skew(y) > 1.0)


def _most_correlated(x: pd.DataFrame, y: np.ndarray, k: int) -> list[str]:
    """Pick the ``k`` columns whose absolute Pearson correlation with ``y`` is largest (ties by name)."""
    codes = pd.Series(
        pd.factorize(y, sort=True)[0] if not np.issubdtype(np.asarray(y).dtype, np.number) else y,
        index=x.index,
        dtype="float64",
    )
    corr = x.corrwith(codes).abs().fillna(0.0)
    order = sorted(corr.index, key=lambda name: (-corr[name], name))
    return order[:k]
