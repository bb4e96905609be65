"""Stronger reference solutions for free-text classification: word + character n-grams, NB-SVM, a small MLP.

These are the entries a careful Kaggle participant would submit on a review-sentiment task:

- ``wordchar``: a logistic regression on word 1-2-gram and character 2-5-gram TF-IDF side by side
  (sublinear term frequencies); ``C`` given, or chosen from 1, 4 and 16 by 3-fold cross-validated ROC
  AUC (log loss for several classes) on the training documents when ``C="cv"``;
- ``nbsvm``: Wang and Manning's NB-SVM (in its logistic form): binary word n-gram presence scaled by
  the naive-Bayes log-count ratio of the two classes, then an L2 logistic regression;
- ``textmlp``: a one-hidden-layer neural network on the same word + character features (early
  stopping on a held-out tenth of the training documents);
- ``blend``: the mean of the three models' class probabilities.

Only two-class targets are handled by ``nbsvm`` (its ratio contrasts two classes); the others take any
number of classes.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp
from sklearn.feature_extraction.text import CountVectorizer, TfidfVectorizer
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.neural_network import MLPClassifier

from authoring.leaderboards.population import FRACTIONS
from authoring.leaderboards.solution import Solution, solution

__all__ = ["MODELS", "fit_predict", "strong_text_population"]

MODELS = frozenset({"wordchar", "nbsvm", "textmlp", "blend"})
_GRID = (1.0, 4.0, 16.0)


def _wordchar(train: list[str], test: list[str], char_range: tuple[int, int] = (2, 5)) -> tuple:
    word = TfidfVectorizer(ngram_range=(1, 2), min_df=2, sublinear_tf=True, dtype=np.float32)
    char = TfidfVectorizer(
        analyzer="char_wb", ngram_range=char_range, min_df=3, sublinear_tf=True, dtype=np.float32
    )
    x = sp.hstack([word.fit_transform(train), char.fit_transform(train)]).tocsr()
    t = sp.hstack([word.transform(test), char.transform(test)]).tocsr()
    return x, t


def _chosen_c(x, y: np.ndarray, seed: int) -> float:
    folds = StratifiedKFold(3, shuffle=True, random_state=seed)
    scoring = "roc_auc" if len(np.unique(y)) == 2 else "neg_log_loss"
    scores = [
        cross_val_score(_lr(c, seed, len(np.unique(y))), x, y, cv=folds, scoring=scoring).mean()
        for c in _GRID
    ]
    return _GRID[int(np.argmax(scores))]


def _logistic(x, y, t, options: dict, seed: int) -> np.ndarray:
    c = options.get("C", "cv")
    c = _chosen_c(x, y, seed) if c == "cv" else float(c)
    return _lr(c, seed, len(np.unique(y))).fit(x, y).predict_proba(t)


def _lr(c: float, seed: int, classes: int) -> LogisticRegression:
    """L2 logistic regression; liblinear (fast on sparse n-grams) for two classes."""
    solver = "liblinear" if classes == 2 else "lbfgs"
    return LogisticRegression(C=c, solver=solver, max_iter=3000, random_state=seed)


def _nbsvm(train: list[str], y: np.ndarray, test: list[str], options: dict, seed: int) -> np.ndarray:
    classes = np.unique(y)
    if len(classes) != 2:
        raise ValueError("nbsvm contrasts exactly two classes")
    n = int(options.get("ngram", 2))
    counts = CountVectorizer(ngram_range=(1, n), min_df=1, binary=True, dtype=np.float32)
    x, t = counts.fit_transform(train), counts.transform(test)
    positive = y == classes[1]
    alpha = float(options.get("alpha", 1.0))
    p = alpha + np.asarray(x[positive].sum(axis=0)).ravel()
    q = alpha + np.asarray(x[~positive].sum(axis=0)).ravel()
    ratio = np.log((p / p.sum()) / (q / q.sum())).astype(np.float32)
    scale = sp.diags(ratio)
    model = _lr(float(options.get("C", 1.0)), seed, 2)
    return model.fit(x @ scale, y).predict_proba(t @ scale)


def _mlp(x, y, t, options: dict, seed: int) -> np.ndarray:
    hidden = int(options.get("hidden", 64))
    model = MLPClassifier(
        hidden_layer_sizes=(hidden,),
        alpha=float(options.get("alpha", 1e-4)),
        early_stopping=True,
        validation_fraction=0.1,
        n_iter_no_change=3,
        max_iter=50,
        batch_size=128,
        random_state=seed,
    )
    return model.fit(x, y).predict_proba(t)


def fit_predict(
    solution: Solution, train: list[str], y: np.ndarray, test: list[str]
) -> tuple[np.ndarray, list]:
    """Class probabilities of the test documents (columns in the order of the sorted classes)."""
    o, seed = solution.options, solution.seed
    classes = list(np.unique(y))
    if solution.model == "nbsvm":
        return _nbsvm(train, y, test, o, seed), classes
    x, t = _wordchar(train, test, tuple(o.get("chars", (2, 5))))
    if solution.model == "wordchar":
        return _logistic(x, y, t, o, seed), classes
    if solution.model == "textmlp":
        return _mlp(x, y, t, o, seed), classes
    parts = [_logistic(x, y, t, {"C": "cv"}, seed), _mlp(x, y, t, {}, seed)]
    if len(classes) == 2:
        parts.append(_nbsvm(train, y, test, {"ngram": 3, "C": 1.0}, seed))
    return np.mean(parts, axis=0), classes


def strong_text_population() -> list[Solution]:
    """Return the tuned text entries: C grids, n-gram orders, learning curves and reseeds."""
    s = solution
    f = "text"
    wordchar = [s("wordchar", f, C=c) for c in (0.3, 1.0, 3.0, 10.0, 30.0, 100.0)] + [
        s("wordchar", f, C="cv"),
        s("wordchar", f, C="cv", chars=(1, 3)),
        s("wordchar", f, C="cv", chars=(3, 6)),
    ]
    nbsvm = [s("nbsvm", f, ngram=n, C=c) for n in (1, 2, 3) for c in (0.1, 1.0, 10.0)]
    nbsvm += [s("nbsvm", f, ngram=3, C=1.0, alpha=a) for a in (0.25, 4.0)]
    mlp = [s("textmlp", f, hidden=h, alpha=a) for h in (16, 64) for a in (1e-4, 1e-2)]
    curves = [s("wordchar", f, fraction, C="cv") for fraction in (0.05, 0.1, 0.25, 0.5)] + [
        s("nbsvm", f, fraction, ngram=3, C=1.0) for fraction in (0.1, 0.25, 0.5)
    ]
    curves += [s("nbsvm", f, fraction, seed, ngram=2, C=1.0) for fraction in FRACTIONS for seed in (1, 2)]
    curves += [s("wordchar", f, fraction, 1, C=3.0) for fraction in FRACTIONS]
    nbsvm += [s("nbsvm", f, ngram=n, C=1.0, alpha=0.5) for n in (1, 2)] + [s("nbsvm", f, ngram=4, C=1.0)]
    seeds = [s("textmlp", f, 1.0, seed, hidden=64, alpha=1e-4) for seed in (1, 2)]
    seeds += [s("blend", f, 1.0, seed) for seed in (0, 1, 2)]
    seeds += [s("blend", f, fraction, 0) for fraction in (0.25, 0.5)]
    seeds += [s("textmlp", f, fraction, 0, hidden=64, alpha=1e-4) for fraction in (0.1, 0.25, 0.5)]
    return [*wordchar, *nbsvm, *mlp, *curves, *seeds]
