"""Model families of the reference population, built by name from a :class:`~.solution.Solution`.

Every family is an ordinary scikit-learn estimator with its seed fixed, ``n_jobs=1`` (parallelism comes
from running several solutions at once) and hyper-parameters taken from ``Solution.params``. Parameters
that are not estimator arguments (``target``, ``pixels``, ``components``, ...) are read by the task
modules and ignored here.
"""

from __future__ import annotations

from typing import Any

from sklearn.base import BaseEstimator
from sklearn.discriminant_analysis import LinearDiscriminantAnalysis
from sklearn.dummy import DummyClassifier, DummyRegressor
from sklearn.ensemble import (
    ExtraTreesClassifier,
    ExtraTreesRegressor,
    HistGradientBoostingClassifier,
    HistGradientBoostingRegressor,
    RandomForestClassifier,
    RandomForestRegressor,
)
from sklearn.linear_model import Lasso, LinearRegression, LogisticRegression, Ridge
from sklearn.naive_bayes import GaussianNB, MultinomialNB
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.neural_network import MLPClassifier, MLPRegressor
from sklearn.svm import SVC, SVR
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

from authoring.leaderboards.solution import Solution

__all__ = ["SCALED", "SPARSE_OK", "make_estimator"]

# Families that want standardised inputs (distance- or gradient-based).
SCALED = frozenset({"logistic", "linear", "ridge", "lasso", "knn", "mlp", "svm", "lda"})
# Families that take a sparse TF-IDF matrix as it is; the others get a dense projection.
SPARSE_OK = frozenset({"logistic", "linear", "ridge", "lasso", "mnb", "svm"})

# Keys of Solution.params that the task modules interpret; never passed to an estimator.
_TASK_KEYS = frozenset(
    {
        "target",
        "pixels",
        "components",
        "ngram",
        "left",
        "right",
        "sigma",
        "window",
        "min_size",
        "offset",
        "stress",
    }
)


def _kwargs(solution: Solution) -> dict[str, Any]:
    return {k: v for k, v in solution.params if k not in _TASK_KEYS}


def make_estimator(
    solution: Solution, task: str, *, probabilities: bool = False, n_samples: int | None = None
) -> BaseEstimator:
    """Return an unfitted estimator for ``solution.model`` and ``task`` (classification or regression).

    ``probabilities`` asks for calibrated ``predict_proba`` where it costs extra (SVC). ``n_samples``, the
    number of training rows, caps ``n_neighbors`` so that a small training fraction still fits.

    >>> from .solution import solution
    >>> make_estimator(solution("rf", n_estimators=10), "regression").n_estimators
    10
    >>> make_estimator(solution("knn", n_neighbors=15), "classification", n_samples=7).n_neighbors
    7
    """
    kw = _kwargs(solution)
    if n_samples is not None and "n_neighbors" in kw:
        kw["n_neighbors"] = min(int(kw["n_neighbors"]), n_samples)
    seed = solution.seed
    classify = task == "classification"
    family = solution.model
    if family == "constant":
        default = "prior" if classify else "mean"
        strategy = kw.pop("strategy", default)
        return (
            DummyClassifier(strategy=strategy, random_state=seed)
            if classify
            else DummyRegressor(strategy=strategy)
        )
    if family == "logistic":
        return LogisticRegression(max_iter=2000, random_state=seed, **kw)
    if family == "linear":
        return LinearRegression(**kw)
    if family == "ridge":
        return Ridge(**kw)
    if family == "lasso":
        return Lasso(max_iter=20000, random_state=seed, **kw)
    if family == "knn":
        return (KNeighborsClassifier if classify else KNeighborsRegressor)(**kw)
    if family == "tree":
        return (DecisionTreeClassifier if classify else DecisionTreeRegressor)(random_state=seed, **kw)
    if family in ("rf", "et"):
        forests = {
            "rf": (RandomForestClassifier, RandomForestRegressor),
            "et": (ExtraTreesClassifier, ExtraTreesRegressor),
        }
        cls = forests[family][0 if classify else 1]
        # R's randomForest default for regression (a third of the features) keeps forests affordable.
        defaults = {"n_estimators": 100, "max_features": "sqrt" if classify else 0.33}
        return cls(random_state=seed, n_jobs=1, **{**defaults, **kw})
    if family == "hgb":
        cls = HistGradientBoostingClassifier if classify else HistGradientBoostingRegressor
        return cls(random_state=seed, early_stopping=False, **kw)
    if family == "gnb":
        return GaussianNB(**kw)
    if family == "mnb":
        return MultinomialNB(**kw)
    if family == "mlp":
        cls = MLPClassifier if classify else MLPRegressor
        return cls(random_state=seed, **{"max_iter": 200, "batch_size": 256, **kw})
    if family == "svm":
        return SVC(probability=probabilities, random_state=seed, **kw) if classify else SVR(**kw)
    if family == "lda":
        return LinearDiscriminantAnalysis(**kw)
    raise ValueError(f"unknown model family {family!r} in solution {solution.team}")
