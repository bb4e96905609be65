"""The reference populations: which solutions make up each kind of competition's leaderboard.

A Kaggle leaderboard has a few trivial entries, a long middle of ordinary models and a handful of
well-tuned ones. Each population below imitates that shape with real, fitted models:

1. **trivial** entries (one or two): constant predictors and chance-level guessers;
2. a **zoo** of model families at full data and seed 0, each with a weak, a typical and a strong
   setting where the family has such knobs, and with feature subsets or encodings varied;
3. **learning curves**: a few families retrained on 5%, 10%, 25% and 50% of the training rows;
4. **reseeds**: the randomised families again with seeds 1 and 2.

The functions only list :class:`~.solution.Solution` records; task modules do the fitting.
"""

from __future__ import annotations

from authoring.leaderboards.solution import Solution, solution

__all__ = [
    "FRACTIONS",
    "image_population",
    "segmentation_population",
    "series_population",
    "tabular_population",
    "transduction_population",
]

FRACTIONS = (0.05, 0.1, 0.25, 0.5)


def _curves(bases: list[Solution], fractions: tuple[float, ...] = FRACTIONS) -> list[Solution]:
    return [
        Solution(b.model, b.features, b.params, fraction, b.seed) for b in bases for fraction in fractions
    ]


def _unique(solutions: list[Solution]) -> list[Solution]:
    """Drop repeats (e.g. a narrow feature set that equals ``all`` on this data), keeping the first."""
    return list(dict.fromkeys(solutions))


def _reseed(bases: list[Solution], seeds: tuple[int, ...] = (1, 2)) -> list[Solution]:
    return [Solution(b.model, b.features, b.params, b.train_fraction, seed) for b in bases for seed in seeds]


def tabular_population(
    task: str, feature_sets: list[str], *, text_only: bool = False, log_target: bool = False
) -> list[Solution]:
    """Solutions for a tabular competition; ``task`` is ``"classification"`` or ``"regression"``.

    ``log_target`` says whether regression models learn on a log scale by default (see :mod:`.tabular`);
    two regression entries take the other scale, so both choices appear on the leaderboard.
    """
    if text_only:
        return _text_population()
    has = set(feature_sets)
    narrow = "numeric" if "numeric" in has else "all"
    few = "few" if "few" in has else narrow
    s = solution
    if task == "classification":
        trivial = [s("constant"), s("constant", strategy="stratified")]
        zoo = [
            s("logistic", C=0.01),
            s("logistic", C=1.0),
            s("logistic", narrow, C=1.0),
            s("logistic", few, C=1.0),
            s("knn", n_neighbors=1),
            s("knn", n_neighbors=15),
            s("knn", narrow, n_neighbors=50),
            s("tree", max_depth=3),
            s("tree", max_depth=None),
            s("tree", max_depth=8, min_samples_leaf=5),
            s("rf", n_estimators=100),
            s("rf", narrow, n_estimators=100, max_depth=6),
            s("et", n_estimators=100),
            s("et", n_estimators=100, min_samples_leaf=3),
            s("hgb", learning_rate=0.1, max_iter=100),
            s("hgb", learning_rate=0.05, max_depth=3, max_iter=300),
            s("hgb", learning_rate=0.3, max_iter=200),
            s("hgb", few, learning_rate=0.1, max_iter=100),
            s("gnb"),
            s("gnb", narrow),
            s("mlp", hidden_layer_sizes=(32,), alpha=1e-3),
            s("mlp", hidden_layer_sizes=(64, 32), alpha=1e-2),
            s("svm", C=1.0),
            s("lda"),
        ]
        curves = [
            s("hgb", learning_rate=0.1, max_iter=100),
            s("logistic", C=1.0),
            s("rf", n_estimators=100),
            s("knn", n_neighbors=15),
        ]
        reseeds = [s("rf", n_estimators=100), s("et", n_estimators=100, min_samples_leaf=3)]
    else:
        other_scale = "raw" if log_target else "log"
        trivial = [s("constant", strategy="mean"), s("constant", strategy="median")]
        zoo = [
            s("linear"),
            s("ridge", alpha=1.0),
            s("ridge", alpha=30.0),
            s("ridge", narrow, alpha=1.0),
            s("ridge", few, alpha=1.0),
            s("ridge", target=other_scale, alpha=1.0),
            s("lasso", alpha=0.001),
            s("knn", n_neighbors=5),
            s("knn", n_neighbors=20),
            s("knn", narrow, n_neighbors=5),
            s("tree", max_depth=4),
            s("tree", max_depth=None),
            s("tree", few, max_depth=6),
            s("rf", n_estimators=100),
            s("rf", n_estimators=100, max_depth=8),
            s("et", n_estimators=100),
            s("et", n_estimators=100, min_samples_leaf=3),
            s("hgb", learning_rate=0.1, max_iter=100),
            s("hgb", learning_rate=0.05, max_depth=3, max_iter=300),
            s("hgb", learning_rate=0.3, max_iter=200),
            s("hgb", target=other_scale, learning_rate=0.1, max_iter=100),
            s("mlp", hidden_layer_sizes=(64,), alpha=1e-3),
            s("mlp", hidden_layer_sizes=(128, 64), alpha=1e-2),
            s("svm", C=1.0),
        ]
        curves = [
            s("hgb", learning_rate=0.1, max_iter=100),
            s("ridge", alpha=1.0),
            s("rf", n_estimators=100),
            s("knn", n_neighbors=5),
        ]
        reseeds = [s("rf", n_estimators=100), s("et", n_estimators=100)]
    return _unique([*trivial, *zoo, *_curves(curves), *_reseed(reseeds)])


def _text_population() -> list[Solution]:
    """Free-text classification: TF-IDF word or character features, linear and projected models."""
    s = solution
    trivial = [s("constant"), s("constant", strategy="stratified")]
    zoo = [
        s("logistic", "text-word", C=0.1),
        s("logistic", "text-word", C=1.0),
        s("logistic", "text-word", C=10.0),
        s("logistic", "text-char", C=1.0),
        s("logistic", "text-char", C=10.0),
        s("mnb", "text-word", alpha=0.1),
        s("mnb", "text-word", alpha=1.0),
        s("mnb", "text-char", alpha=1.0),
        s("logistic", "text-word", C=100.0),
        s("knn", "text-word", n_neighbors=5),
        s("knn", "text-word", n_neighbors=50),
        s("tree", "text-word", max_depth=6),
        s("tree", "text-word", max_depth=None),
        s("rf", "text-word", n_estimators=100),
        s("et", "text-word", n_estimators=100),
        s("hgb", "text-word", learning_rate=0.1, max_iter=100),
        s("hgb", "text-char", learning_rate=0.05, max_iter=200, components=50),
        s("gnb", "text-word"),
        s("lda", "text-word", components=50),
        s("mlp", "text-word", hidden_layer_sizes=(64,), alpha=1e-2),
        s("logistic", "text-word", C=1.0, components=20),
        s("rf", "text-char", n_estimators=100, components=20),
    ]
    curves = [
        s("logistic", "text-word", C=10.0),
        s("mnb", "text-word", alpha=0.1),
        s("hgb", "text-word", learning_rate=0.1, max_iter=100),
        s("knn", "text-word", n_neighbors=50),
    ]
    reseeds = [s("rf", "text-word", n_estimators=100), s("et", "text-word", n_estimators=100)]
    return _unique([*trivial, *zoo, *_curves(curves), *_reseed(reseeds)])


def image_population() -> list[Solution]:
    """Image classification: raw, pooled, gradient-histogram and projection features."""
    s = solution
    trivial = [s("constant", "none", strategy="most_frequent"), s("constant", "none", strategy="stratified")]
    zoo = [
        s("logistic", "pixels", C=0.01),
        s("logistic", "pool2", C=1.0),
        s("logistic", "hog", C=1.0),
        s("logistic", "proj", C=1.0),
        s("knn", "pixels", n_neighbors=1),
        s("knn", "pool2", n_neighbors=5),
        s("knn", "pool4", n_neighbors=25),
        s("knn", "proj", n_neighbors=5),
        s("knn", "hog", n_neighbors=5),
        s("tree", "pixels", max_depth=None),
        s("tree", "hog", max_depth=8),
        s("tree", "proj", max_depth=6),
        s("rf", "pixels", n_estimators=100),
        s("rf", "pool4", n_estimators=100),
        s("rf", "hog", n_estimators=100),
        s("et", "pixels", n_estimators=100),
        s("hgb", "pool4", learning_rate=0.2, max_iter=50),
        s("hgb", "hog", learning_rate=0.2, max_iter=50),
        s("gnb", "pixels"),
        s("gnb", "hog"),
        s("mlp", "pixels", hidden_layer_sizes=(64,), alpha=1e-3),
        s("mlp", "pool2", hidden_layer_sizes=(128,), alpha=1e-2),
        s("svm", "pool2", C=5.0),
        s("svm", "hog", C=5.0),
        s("lda", "pool2"),
        s("lda", "proj"),
    ]
    curves = [
        s("logistic", "pool2", C=1.0),
        s("knn", "pool2", n_neighbors=5),
        s("svm", "hog", C=5.0),
        s("rf", "pixels", n_estimators=100),
    ]
    reseeds = [s("rf", "pixels", n_estimators=100), s("et", "pixels", n_estimators=100)]
    return _unique([*trivial, *zoo, *_curves(curves), *_reseed(reseeds)])


def segmentation_population() -> list[Solution]:
    """Binary segmentation: thresholding variants and per-pixel classifiers."""
    s = solution
    n = "none"
    trivial = [s("empty", n), s("full", n)]
    thresholding = [
        s("otsu", n, sigma=0.0),
        s("otsu", n, sigma=1.0),
        s("otsu", n, sigma=2.0),
        s("otsu", n, sigma=1.0, min_size=20),
        s("percentile", n, percentile=50),
        s("percentile", n, percentile=70),
        s("percentile", n, percentile=80),
        s("percentile", n, percentile=90),
        s("meanstd", n, offset=0.0),
        s("meanstd", n, offset=0.5),
        s("meanstd", n, offset=1.0),
        s("local", n, sigma=1.0, window=9, offset=0.0),
        s("local", n, sigma=1.0, window=15, offset=0.0),
        s("local", n, sigma=1.0, window=31, offset=0.0),
        s("local", n, sigma=2.0, window=31, offset=-0.25),
        s("learned", n, sigma=0.0),
        s("learned", n, sigma=1.0),
        s("learned", n, sigma=2.0, min_size=20),
    ]
    f = "filters"
    classifiers = [
        s("logistic", f, C=1.0),
        s("gnb", f),
        s("lda", f),
        s("tree", f, max_depth=4),
        s("tree", f, max_depth=None),
        s("rf", f, n_estimators=50, min_samples_leaf=5),
        s("et", f, n_estimators=50, min_samples_leaf=5),
        s("hgb", f, learning_rate=0.1, max_iter=100),
        s("knn", f, n_neighbors=5),
        s("knn", f, n_neighbors=50),
        s("mlp", f, hidden_layer_sizes=(32,), alpha=1e-3),
        s("rf", f, n_estimators=50, min_samples_leaf=5, min_size=20),
    ]
    curves = [
        s("learned", n, sigma=1.0),
        s("rf", f, n_estimators=50, min_samples_leaf=5),
        s("logistic", f, C=1.0),
    ]
    reseeds = [
        s("rf", f, n_estimators=50, min_samples_leaf=5),
        s("mlp", f, hidden_layer_sizes=(32,), alpha=1e-3),
    ]
    return _unique(
        [*trivial, *thresholding, *classifiers, *_curves(curves, (0.05, 0.1, 0.25)), *_reseed(reseeds)]
    )


def transduction_population() -> list[Solution]:
    """String-to-token sequences (grapheme to phoneme): lookup, rule tables and per-character classifiers."""
    s = solution
    n = "none"
    trivial = [s("constant", n)]
    nearest = [s("nn", n, ngram=2), s("nn", n, ngram=3), s("nn", n, ngram=4), s("nn", n, 0.25, ngram=3)]
    tables = [
        s("context", n, left=0, right=0),
        s("context", n, left=1, right=1),
        s("context", n, left=2, right=1),
        s("context", n, left=1, right=2),
        s("context", n, left=2, right=2),
        s("context", n, left=3, right=2),
        s("context", n, left=3, right=3),
        s("context", n, left=4, right=4),
        s("context", n, left=2, right=2, stress=True),
        s("context", n, left=3, right=3, stress=True),
        s("context", n, left=4, right=4, stress=True),
    ]
    classifiers = [
        s("tree", n, window=1),
        s("tree", n, window=2),
        s("tree", n, window=3),
        s("tree", n, window=4),
        s("tree", n, window=3, stress=True),
        s("tree", n, window=3, min_samples_leaf=3),
        s("mnb", n, window=1, alpha=1.0),
        s("mnb", n, window=2, alpha=0.1),
        s("mnb", n, window=3, alpha=0.1),
        s("logistic", n, window=2, C=1.0),
        s("rf", n, window=3, n_estimators=50),
        s("et", n, window=3, n_estimators=50),
    ]
    curves = [s("context", n, left=3, right=3, stress=True), s("tree", n, window=3)]
    extra = [s("context", n, 0.5, left=4, right=4, stress=True), s("nn", n, 0.5, ngram=3)]
    reseeds = [s("rf", n, window=3, n_estimators=50)]
    return _unique([*trivial, *nearest, *tables, *classifiers, *_curves(curves), *extra, *_reseed(reseeds)])


def series_population() -> list[Solution]:
    """Multivariate series classification: summary, resampled and end-point features."""
    s = solution
    trivial = [s("constant", "none"), s("constant", "none", strategy="stratified")]
    zoo = [
        s("logistic", "stats", C=0.1),
        s("logistic", "stats", C=1.0),
        s("logistic", "resample5", C=1.0),
        s("logistic", "mean", C=1.0),
        s("logistic", "ends", C=1.0),
        s("knn", "stats", n_neighbors=1),
        s("knn", "stats", n_neighbors=10),
        s("knn", "resample5", n_neighbors=10),
        s("knn", "mean", n_neighbors=25),
        s("tree", "stats", max_depth=None),
        s("tree", "stats", max_depth=4, min_samples_leaf=5),
        s("rf", "stats", n_estimators=200),
        s("rf", "resample10", n_estimators=200),
        s("rf", "mean", n_estimators=200),
        s("et", "stats", n_estimators=200),
        s("et", "resample5", n_estimators=200),
        s("hgb", "stats", learning_rate=0.1, max_iter=100),
        s("hgb", "mean", learning_rate=0.1, max_iter=100),
        s("gnb", "stats"),
        s("gnb", "mean"),
        s("lda", "stats"),
        s("lda", "resample5"),
        s("mlp", "stats", hidden_layer_sizes=(64,), alpha=1e-2),
        s("svm", "stats", C=1.0),
        s("svm", "resample5", C=10.0),
    ]
    curves = [
        s("logistic", "stats", C=1.0),
        s("rf", "stats", n_estimators=200),
        s("lda", "stats"),
        s("knn", "stats", n_neighbors=10),
    ]
    reseeds = [s("rf", "stats", n_estimators=200), s("et", "stats", n_estimators=200)]
    return _unique([*trivial, *zoo, *_curves(curves, (0.1, 0.25, 0.5)), *_reseed(reseeds)])
