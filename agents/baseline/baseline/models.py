"""Candidate models for tabular, text and pixel features, behind one small interface.

Every candidate has ``fit(frame, y, pixels)``, ``predict(frame, pixels)`` and ``prepare(frame)`` (fit
here what it shares with other candidates fitted on the same rows, before they are fitted in parallel).
Predictions are class-probability matrices ``(n, k)`` (columns = encoded classes ``0..k-1``) for
classification and values on the original scale for regression. Candidates:

* ``hgb`` — HistGradientBoosting on :class:`~baseline.features.DenseEncoder` features, with text
  columns summarised by out-of-fold scores of a linear TF-IDF model (stacking), plus pixels when
  they are few;
* ``linear`` — logistic regression / ridge on :class:`~baseline.features.SparseEncoder` features
  (TF-IDF text, one-hot categoricals and calendar parts, scaled numbers), plus pixels;
* ``svm`` — PCA + RBF support-vector machine on pixel features (image tasks).
"""

from __future__ import annotations

from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass

import numpy as np
import pandas as pd
import scipy.sparse as sp
from sklearn.decomposition import PCA
from sklearn.ensemble import HistGradientBoostingClassifier, HistGradientBoostingRegressor
from sklearn.linear_model import LogisticRegression, Ridge, RidgeCV
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.svm import SVC, SVR
from threadpoolctl import threadpool_limits

from .columns import ColumnPlan
from .env import Options
from .features import DenseEncoder, fitted_sparse_encoder

ONE_THREAD_BELOW_ROWS = 50_000
"""Boosters on fewer rows fit and predict on one OpenMP thread: below this, two threads were slower than one
(their per-iteration hand-offs outweigh the work; measured: docs/performance.md, "Figures behind design
choices"). The model is the same either way."""


def boosting_threads(n_rows: int) -> AbstractContextManager[object]:
    """Limit OpenMP to one thread while a booster works on ``n_rows`` rows, when that is faster."""
    return threadpool_limits(1, user_api="openmp") if n_rows < ONE_THREAD_BELOW_ROWS else nullcontext()


@dataclass(frozen=True)
class Problem:
    """What one target asks for, in model terms (classes are encoded as ``0..n_classes-1``)."""

    kind: str  # binary | multiclass | regression
    n_classes: int
    log_target: bool
    metric: str
    seed: int

    @property
    def is_classification(self) -> bool:
        """True for binary and multiclass targets."""
        return self.kind != "regression"


def full_proba(model, X, n_classes: int) -> np.ndarray:
    """``predict_proba`` widened to all classes (a fold may miss some classes)."""
    out = np.zeros((X.shape[0], n_classes))
    out[:, np.asarray(model.classes_, dtype=int)] = model.predict_proba(X)
    return out


def _onehot(labels: np.ndarray, n_classes: int) -> np.ndarray:
    out = np.zeros((len(labels), n_classes))
    out[np.arange(len(labels)), labels.astype(int)] = 1.0
    return out


class _TextScorer:
    """Linear TF-IDF model over the text columns only; yields one score per class (or one value)."""

    def __init__(self, plan: ColumnPlan, problem: Problem, options: Options) -> None:
        text_plan = ColumnPlan(numeric=[], date=[], text=plan.text, categorical=[], dropped={})
        self.problem, self.options, self.plan = problem, options, text_plan

    def _fit(self, frame: pd.DataFrame, y: np.ndarray):
        enc = fitted_sparse_encoder(
            self.plan,
            self.problem.seed,
            self.options.tfidf_max_features,
            self.options.char_ngrams_max_chars,
            frame,
        )
        model = linear_estimator(self.problem, C=4.0).fit(enc.transform(frame), y)
        return enc, model

    def _scores(self, enc, model, frame: pd.DataFrame) -> np.ndarray:
        X = enc.transform(frame)
        if not self.problem.is_classification:
            return model.predict(X)[:, None]
        proba = full_proba(model, X, self.problem.n_classes)
        return proba[:, 1:] if self.problem.n_classes == 2 else proba

    def fit_oof(self, frame: pd.DataFrame, y: np.ndarray) -> np.ndarray:
        """Out-of-fold scores for the training rows, then refit on all rows for :meth:`score`."""
        folds = 3
        splitter = (
            StratifiedKFold(folds, shuffle=True, random_state=self.problem.seed)
            if self.problem.is_classification and np.bincount(y.astype(int)).min() >= folds
            else KFold(folds, shuffle=True, random_state=self.problem.seed)
        )
        oof = None
        for tr, va in splitter.split(frame, y):
            enc, model = self._fit(frame.iloc[tr], y[tr])
            part = self._scores(enc, model, frame.iloc[va])
            oof = np.zeros((len(frame), part.shape[1])) if oof is None else oof
            oof[va] = part
        self.enc, self.model = self._fit(frame, y)
        return oof

    def score(self, frame: pd.DataFrame) -> np.ndarray:
        """Scores for new rows from the model fitted on all training rows."""
        return self._scores(self.enc, self.model, frame)


def linear_estimator(problem: Problem, C: float = 1.0):
    """Logistic regression (classification) or ridge (regression) with fixed, seeded settings."""
    if problem.is_classification:
        solver = "liblinear" if problem.n_classes == 2 else "lbfgs"
        return LogisticRegression(C=C, solver=solver, max_iter=2000, random_state=problem.seed)
    return Ridge(alpha=1.0 / C, random_state=problem.seed)


class HGBCandidate:
    """Gradient boosting on dense features (+ stacked text scores, + pixels when few)."""

    name = "hgb"

    def __init__(self, plan: ColumnPlan, problem: Problem, options: Options) -> None:
        self.plan, self.problem, self.options = plan, problem, options

    def _estimator(self, n_rows: int, categorical_mask: list[bool]):
        early = n_rows >= 2000
        params = dict(
            learning_rate=self.options.hgb_learning_rate if early else 0.05,
            max_iter=self.options.hgb_max_iter if early else 150,
            early_stopping=early,
            n_iter_no_change=30,
            validation_fraction=0.1,
            l2_regularization=1.0,
            min_samples_leaf=min(20, max(5, n_rows // 50)),
            categorical_features=np.asarray(categorical_mask, dtype=bool) if any(categorical_mask) else None,
            random_state=self.problem.seed,
        )
        if self.problem.is_classification:
            return HistGradientBoostingClassifier(**params)
        loss = "absolute_error" if self.problem.metric == "mae" else "squared_error"
        return HistGradientBoostingRegressor(loss=loss, **params)

    def _design(self, frame: pd.DataFrame, pixels: np.ndarray | None, text: np.ndarray | None) -> np.ndarray:
        blocks = [self.encoder.transform(frame)]
        if text is not None:
            blocks.append(text)
        if pixels is not None:
            blocks.append(pixels)
        return np.hstack(blocks)

    def prepare(self, frame: pd.DataFrame) -> None:
        """Nothing to share with other candidates (see :meth:`LinearCandidate.prepare`)."""

    def fit(self, frame: pd.DataFrame, y: np.ndarray, pixels: np.ndarray | None = None) -> "HGBCandidate":
        """Fit encoders, the text stacker (if any text column) and the booster."""
        self.encoder = DenseEncoder(self.plan).fit(frame)
        self.text = _TextScorer(self.plan, self.problem, self.options) if self.plan.text else None
        text_oof = self.text.fit_oof(frame, y) if self.text else None
        X = self._design(frame, pixels, text_oof)
        mask = self.encoder.categorical_mask + [False] * (X.shape[1] - len(self.encoder.categorical_mask))
        target = np.log1p(y) if self.problem.log_target else y
        with boosting_threads(len(X)):
            self.model = self._estimator(len(frame), mask).fit(X, target)
        return self

    def predict(self, frame: pd.DataFrame, pixels: np.ndarray | None = None) -> np.ndarray:
        """Class probabilities or values for new rows."""
        X = self._design(frame, pixels, self.text.score(frame) if self.text else None)
        with boosting_threads(len(X)):
            if self.problem.is_classification:
                return full_proba(self.model, X, self.problem.n_classes)
            pred = self.model.predict(X)
        return np.expm1(pred) if self.problem.log_target else pred


class LinearCandidate:
    """Logistic regression / ridge on the sparse design (+ pixels)."""

    def __init__(self, plan: ColumnPlan, problem: Problem, options: Options, C: float = 1.0) -> None:
        self.plan, self.problem, self.options, self.C = plan, problem, options, C
        self.name = f"linear(C={C:g})"

    def _design(self, frame: pd.DataFrame, pixels: np.ndarray | None):
        X = self.encoder.transform(frame)
        return sp.hstack([X, sp.csr_matrix(pixels)], format="csr") if pixels is not None else X

    def prepare(self, frame: pd.DataFrame) -> "LinearCandidate":
        """Fit the sparse encoder on ``frame`` (kept by :func:`~baseline.features.fitted_sparse_encoder`).

        Called before candidates are fitted in forked workers, so that they share the encoder fitted
        here (as sequential fits share it) instead of each fitting its own.
        """
        self.encoder = fitted_sparse_encoder(
            self.plan,
            self.problem.seed,
            self.options.tfidf_max_features,
            self.options.char_ngrams_max_chars,
            frame,
        )
        return self

    def fit(self, frame: pd.DataFrame, y: np.ndarray, pixels: np.ndarray | None = None) -> "LinearCandidate":
        """Fit the sparse encoder and the linear model."""
        self.prepare(frame)
        X = self._design(frame, pixels)
        if self.problem.is_classification:
            self.model = linear_estimator(self.problem, self.C).fit(X, y)
        else:
            target = np.log1p(y) if self.problem.log_target else y
            self.model = RidgeCV(alphas=(0.1, 1.0, 10.0, 100.0)).fit(X, target)
        return self

    def predict(self, frame: pd.DataFrame, pixels: np.ndarray | None = None) -> np.ndarray:
        """Class probabilities or values for new rows."""
        X = self._design(frame, pixels)
        if self.problem.is_classification:
            return full_proba(self.model, X, self.problem.n_classes)
        pred = self.model.predict(X)
        return np.expm1(pred) if self.problem.log_target else pred


class SVMCandidate:
    """PCA + RBF SVM on pixel features; probabilities only when the metric needs them."""

    name = "svm"

    def __init__(self, problem: Problem, needs_proba: bool) -> None:
        self.problem, self.needs_proba = problem, needs_proba

    def prepare(self, frame: pd.DataFrame) -> None:
        """Nothing to share with other candidates (see :meth:`LinearCandidate.prepare`)."""

    def fit(self, frame: pd.DataFrame, y: np.ndarray, pixels: np.ndarray | None = None) -> "SVMCandidate":
        """Fit PCA (at most 80 components) and the SVM on the pixel matrix."""
        n_comp = int(min(80, pixels.shape[1], max(2, pixels.shape[0] - 1)))
        pca = PCA(n_components=n_comp, random_state=self.problem.seed)
        if self.problem.is_classification:
            svm = SVC(C=5.0, gamma="scale", probability=self.needs_proba, random_state=self.problem.seed)
            target = y
        else:
            svm = SVR(C=5.0, gamma="scale")
            target = np.log1p(y) if self.problem.log_target else y
        self.model = make_pipeline(pca, svm).fit(pixels, target)
        return self

    def predict(self, frame: pd.DataFrame, pixels: np.ndarray | None = None) -> np.ndarray:
        """Class probabilities (one-hot votes without probability fitting) or values."""
        if not self.problem.is_classification:
            pred = self.model.predict(pixels)
            return np.expm1(pred) if self.problem.log_target else pred
        if self.needs_proba:
            return full_proba(self.model, pixels, self.problem.n_classes)
        return _onehot(self.model.predict(pixels), self.problem.n_classes)


def make_candidates(plan: ColumnPlan, problem: Problem, options: Options, n_pixels: int) -> list:
    """List the candidates worth trying for this feature mix, the default choice first.

    The default is the SVM for pixels, the linear model when there is text, boosting otherwise; it is
    the one used when model selection is switched off or the time budget allows only one.
    """
    tabular_cols = len(plan.numeric) + len(plan.date) + len(plan.categorical)
    if n_pixels:
        candidates: list = [
            SVMCandidate(problem, needs_proba=problem.metric in ("roc_auc", "log_loss")),
            LinearCandidate(plan, problem, options, C=0.1),
        ]
        if n_pixels <= 256:
            candidates.append(HGBCandidate(plan, problem, options))
        return candidates
    linear = [LinearCandidate(plan, problem, options, C=1.0)]
    if plan.text:
        linear.append(LinearCandidate(plan, problem, options, C=4.0))
    boosting = [HGBCandidate(plan, problem, options)] if tabular_cols else []
    return linear + boosting if plan.text or not boosting else boosting + linear
