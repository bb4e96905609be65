"""The strong end of a tabular leaderboard: feature engineering, cross-validated boosting, stacking.

A tabular competition may have a *recipe*, a module ``authoring.leaderboards.recipes.<id>`` (dashes
become underscores) with the feature engineering a careful participant would write for it (see
:mod:`authoring.leaderboards.recipes`). Such a competition loads as an :class:`EngineeredTask`: its
leaderboard holds the ordinary population of :mod:`.tabular` on the raw columns, plus the entries of
:func:`strong_population`:

- ordinary model families again, on the engineered columns (feature set ``fe``);
- gradient boosting (:mod:`.boosting`: LightGBM ``lgbm``, CatBoost ``cat``) on the raw and the
  engineered columns, cross-validated: k folds (time-ordered for a temporal recipe), early stopping on
  each held-out fold, test predictions averaged over the fold models;
- ``tuned`` boosters: a seeded random search over hyper-parameters, each candidate scored by the same
  cross-validation on the training rows, the best one kept;
- ``blend`` (a plain average) and ``stack`` (a linear meta-model fitted on out-of-fold predictions)
  ensembles of several of the above.

Target encodings a recipe asks for (``ENCODE``) are cross-fitted inside every training fold
(scikit-learn's ``TargetEncoder``), so no row's own answer reaches its features. A temporal recipe's
folds are one time-ordered holdout (the last quarter of the training days): rounds are chosen on it,
then the model is refitted on every training day.
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np
import pandas as pd
from sklearn.linear_model import LinearRegression, LogisticRegression
from sklearn.model_selection import KFold, StratifiedKFold
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import TargetEncoder

from authoring.leaderboards.boosting import BOOSTERS, Booster
from authoring.leaderboards.columns import TEXT, infer_roles
from authoring.leaderboards.sampling import subsample
from authoring.leaderboards.solution import Solution, solution
from authoring.leaderboards.tabular import TabularTask, _skewed_positive
from graders.registry import Metric

__all__ = ["EngineeredTask", "recipe_for", "strong_population"]

ENSEMBLES = frozenset({"blend", "stack"})
FOLDS = 5
# The booster settings an ensemble combines and the ones reseeded and retrained on fewer rows.
FAVOURITES = (
    solution("lgbm", "fe", lr=0.05, leaves=15, col=0.5),
    solution("cat", "fe", lr=0.05, depth=6),
)
# The search space of ``tuned`` boosters: each trial draws one value per key.
_SPACE = {
    "lgbm": {
        "lr": (0.02, 0.03, 0.05, 0.08),
        "leaves": (4, 7, 15, 31),
        "leaf": (5, 10, 20, 40),
        "sub": (0.6, 0.8, 1.0),
        "col": (0.3, 0.5, 0.7, 1.0),
        "l2": (0.0, 1.0, 5.0),
    },
    "cat": {"lr": (0.03, 0.05, 0.08), "depth": (4, 5, 6), "l2": (1.0, 3.0, 10.0), "col": (0.5, 1.0)},
}


def members(name: str, task: str) -> list[Solution]:
    """Return the members of a named ensemble.

    ``gbm``: the favourite LightGBM and CatBoost settings; ``gbm+linear``: those and a regularised linear
    model; ``wide``: those, a random forest and k-NN too.
    """
    linear = (
        solution("logistic", "fe", C=0.1) if task == "classification" else solution("ridge", "fe", alpha=3.0)
    )
    gbm = list(FAVOURITES)
    sets = {
        "gbm": gbm,
        "gbm+linear": [*gbm, linear],
        "wide": [*gbm, linear, solution("rf", "fe", n_estimators=300, min_samples_leaf=3),
                 solution("knn", "fe", n_neighbors=25 if task == "classification" else 10)],
    }  # fmt: skip
    if name not in sets:
        raise ValueError(f"unknown ensemble {name!r} (known: {sorted(sets)})")
    return sets[name]


def recipe_for(competition_id: str) -> ModuleType | None:
    """Return the recipe module of a competition, or None when it has none."""
    name = f"authoring.leaderboards.recipes.{competition_id.replace('-', '_')}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        if error.name != name:
            raise
        return None


def _booster(model: str, fraction: float = 1.0, seed: int = 0, features: str = "fe", **params) -> Solution:
    return solution(model, features, fraction, seed, **params)


def strong_population(task: str, temporal: bool) -> list[Solution]:
    """Return the engineered, boosted and ensembled entries (see the module docstring)."""
    s = solution
    if task == "classification":
        ordinary = [
            s("logistic", "fe", C=0.1),
            s("logistic", "fe", C=1.0),
            s("rf", "fe", n_estimators=300, min_samples_leaf=3),
            s("et", "fe", n_estimators=300, min_samples_leaf=3),
            s("hgb", "fe", learning_rate=0.05, max_depth=3, max_iter=300),
            s("hgb", "fe", learning_rate=0.1, max_iter=100),
            s("knn", "fe", n_neighbors=25),
            s("mlp", "fe", hidden_layer_sizes=(32,), alpha=1e-2),
            s("svm", "fe", C=1.0),
        ]
    else:
        ordinary = [
            s("ridge", "fe", alpha=3.0),
            s("ridge", "fe", alpha=30.0),
            s("lasso", "fe", alpha=0.0005),
            s("rf", "fe", n_estimators=300),
            s("et", "fe", n_estimators=300),
            s("hgb", "fe", learning_rate=0.05, max_depth=3, max_iter=300),
            s("hgb", "fe", learning_rate=0.1, max_iter=100),
            s("knn", "fe", n_neighbors=10),
            s("mlp", "fe", hidden_layer_sizes=(64,), alpha=1e-2),
            s("svm", "fe", C=1.0),
        ]
    b = _booster
    raw = [
        b("lgbm", features="all", lr=0.1, leaves=31),
        b("lgbm", features="all", lr=0.05, leaves=15, col=0.5),
        b("cat", features="all", lr=0.08, depth=6),
    ]
    grid = [
        b("lgbm", lr=lr, leaves=leaves, col=col)
        for lr in (0.03, 0.1)
        for leaves in (7, 31)
        for col in (0.5, 1.0)
    ]
    grid += [
        b("lgbm", lr=0.05, leaves=15, leaf=5, col=0.5),
        b("lgbm", lr=0.05, leaves=15, leaf=40, col=0.5, sub=0.8),
        b("lgbm", lr=0.05, leaves=4, col=0.3, l2=1.0),
        b("lgbm", lr=0.02, leaves=15, col=0.5, sub=0.8, l2=1.0, rounds=2000),
        b("cat", lr=0.05, depth=4),
        b("cat", lr=0.05, depth=6),
        b("cat", lr=0.08, depth=5, col=0.5),
    ]
    favourites = list(FAVOURITES)
    reseeded = [
        Solution(f.model, f.features, f.params, f.train_fraction, seed)
        for f in favourites
        for seed in (0, 1, 2, 3, 4)
    ]
    tuned = [b("tuned", seed=seed, family="lgbm", trials=4) for seed in range(5)]
    tuned += [b("tuned", family="cat", trials=3)]
    curves = [
        Solution(f.model, f.features, f.params, fraction, f.seed)
        for f in favourites
        for fraction in (0.1, 0.25, 0.5)
    ]
    forks = [Solution(r.model, r.features, r.params, 1.0, seed) for r in raw[:1] for seed in (1, 2)]
    ensembles = [
        b("blend", members="gbm"),
        b("blend", members="gbm+linear"),
        *(b("stack", seed=seed, members="gbm+linear") for seed in range(3)),
        b("stack", members="wide"),
    ]
    return list(dict.fromkeys([*ordinary, *raw, *forks, *grid, *reseeded, *tuned, *curves, *ensembles]))


@dataclass
class _Fold:
    """The training rows and the held-out rows of one fold (positions within the solution's rows)."""

    fit: np.ndarray
    held: np.ndarray


@dataclass
class EngineeredTask:
    """A tabular competition with a recipe: the raw task, the engineered task, and how to validate."""

    base: TabularTask
    fe: TabularTask
    recipe: ModuleType
    metric: Metric
    keys: tuple[pd.DataFrame, pd.DataFrame] = field(default=(pd.DataFrame(), pd.DataFrame()))
    kind: str = "tabular-engineered"

    @classmethod
    def create(cls, base: TabularTask, recipe: ModuleType, metric: Metric, public) -> EngineeredTask:
        """Engineer features of the public files with ``recipe`` and wrap both tasks."""
        ids = {base.output.id_column: str}
        train = pd.read_csv(public / "train.csv", dtype=ids)
        test = pd.read_csv(public / "test.csv", dtype=ids)
        target = train[list(base.output.columns)]
        train, test = recipe.features(train.drop(columns=list(base.output.columns)), test)
        train = pd.concat([train, target], axis=1)
        roles = infer_roles(train, base.output.id_column, list(base.output.columns))
        origin = None
        if roles.date_id:
            origin = pd.to_datetime(train[roles.date_id].astype(str), format="ISO8601").min()
        fe = TabularTask(
            base.output,
            roles,
            roles.frame(train, origin),
            base.target,
            roles.frame(test, origin),
            base.test_ids,
        )
        encode = list(getattr(recipe, "ENCODE", ()))
        keys = tuple(
            frame[encode].astype(object).fillna("(missing)").astype(str).reset_index(drop=True)
            for frame in (train, test)
        )
        return cls(base, fe, recipe, metric, keys)

    @property
    def temporal(self) -> bool:
        """Whether validation must respect time (the recipe says so)."""
        return bool(getattr(self.recipe, "TEMPORAL", False))

    @property
    def output(self):
        """The submission's shape."""
        return self.base.output

    @property
    def notes(self) -> tuple[str, ...]:
        """Report lines describing the strong entries (``leaderboard.md``)."""
        recipe = self.recipe.__name__.replace(".", "/") + ".py"
        validation = (
            "one time-ordered holdout (the last quarter of the training days) picks the number of trees,"
            " then the model is refitted on every training day"
            if self.temporal
            else f"{FOLDS}-fold cross-validation with early stopping on each held-out fold; test"
            " predictions are the average of the fold models"
        )
        keys = ", ".join(f"`{k}`" for k in self.keys[0].columns) or "none"
        return (
            "- Strong entries (`authoring/leaderboards/engineered.py`): the engineered columns of the",
            f"  recipe `{recipe}` (feature set `fe`), ordinary families on them, LightGBM (`lgbm`) and",
            f"  CatBoost (`cat`) boosters on raw and engineered columns ({validation}),",
            "  `tuned` boosters (a seeded random search, each trial scored by that validation on the",
            "  training rows), reseeded and smaller-data copies of the favourite settings, and `blend`",
            "  (mean) and `stack` (linear meta-model on out-of-fold predictions) ensembles of boosters, a",
            "  linear model and, for `wide`, a forest and k-NN. Target-encoded keys (cross-fitted per",
            f"  fold): {keys}.",
        )

    def population(self) -> list[Solution]:
        """Return the ordinary population on the raw columns plus the strong entries."""
        return [*self.base.population(), *strong_population(self.output.task, self.temporal)]

    def predict(self, s: Solution) -> pd.DataFrame:
        """Fit ``s`` on its share of the training rows and return its submission frame."""
        if s.model not in BOOSTERS | ENSEMBLES | {"tuned"}:
            if s.features == "fe":
                return self.fe.predict(Solution(s.model, "all", s.params, s.train_fraction, s.seed))
            return self.base.predict(s)
        rows = self._rows(s)
        _, test = self._out_of_fold(s, rows)
        return self._submission(test)

    # -- validation -----------------------------------------------------------------------------

    def _rows(self, s: Solution) -> np.ndarray:
        labels = self.base.target if self.output.task == "classification" else None
        return subsample(len(self.base.train), s.train_fraction, s.seed, labels)

    def _folds(self, rows: np.ndarray, seed: int) -> list[_Fold]:
        if self.temporal:  # rows are in date order; hold out the last quarter
            cut = int(len(rows) * 0.75)
            return [_Fold(np.arange(cut), np.arange(cut, len(rows)))]
        y = self.base.target[rows]
        splitter = (
            StratifiedKFold(FOLDS, shuffle=True, random_state=seed)
            if self.output.task == "classification"
            else KFold(FOLDS, shuffle=True, random_state=seed)
        )
        return [_Fold(a, b) for a, b in splitter.split(np.zeros(len(rows)), y)]

    def _target(self, y: np.ndarray) -> tuple[np.ndarray, bool]:
        """Return the learning target and whether it is on the log scale (as :mod:`.tabular` decides)."""
        if self.output.task == "regression" and _skewed_positive(y):
            return np.log1p(np.asarray(y, dtype=np.float64)), True
        return np.asarray(y, dtype=np.float64), False

    def _loss(self, oof: np.ndarray, y: np.ndarray) -> float:
        """Lower-is-better validation loss: the metric for regression, log loss for classification."""
        if self.output.task == "classification":
            p = np.clip(oof, 1e-6, 1 - 1e-6)
            return float(-np.mean(y * np.log(p) + (1 - y) * np.log(1 - p)))
        value = self.metric.fn(y, np.clip(oof, 0, None) if self.output.non_negative else oof)
        return value if not self.metric.higher_is_better else -value

    def _out_of_fold(self, s: Solution, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Out-of-fold predictions of the training rows (NaN where never held out) and test predictions.

        Both are on the answer scale: probabilities of class 1, or values.
        """
        if s.model == "tuned":
            return self._tuned(s, rows)
        if s.model in ENSEMBLES:
            return self._ensemble(s, rows)
        folds = self._folds(rows, s.seed)
        oof = np.full(len(rows), np.nan)
        tests = []
        for fold in folds:
            held, test, rounds = self._fit_fold(s, rows, fold)
            oof[fold.held] = held
            if self.temporal:  # refit on every training day with the rounds the holdout chose
                test = self._fit_fold(s, rows, _Fold(np.arange(len(rows)), np.arange(0)), rounds)[1]
            tests.append(test)
        return oof, np.mean(tests, axis=0)

    def _fit_fold(
        self, s: Solution, rows: np.ndarray, fold: _Fold, rounds: int | None = None
    ) -> tuple[np.ndarray, np.ndarray, int | None]:
        """Fit ``s`` on a fold's training rows; predict its held-out rows and the test rows."""
        task = self.fe if s.features == "fe" else self.base
        fit_rows, held_rows = rows[fold.fit], rows[fold.held]
        y_all = self.base.target
        if s.model not in BOOSTERS:  # an ordinary family as an ensemble member
            member = Solution(s.model, "all", s.params, 1.0, s.seed)
            x, y = task.train.iloc[fit_rows], y_all[fit_rows]
            model = make_pipeline(task._encoder(member, x, y), task._estimator(member, y)).fit(x, y)
            return (
                self._answer(model, task.train.iloc[held_rows]),
                self._answer(model, task.test),
                None,
            )
        y, log = self._target(y_all[fit_rows])
        frames, categorical = self._booster_frames(task, s, fit_rows, held_rows, y)
        loss = s.options.get("loss") or ("l1" if self.metric.name == "mae" else "l2")
        params = {k: v for k, v in s.params if k != "loss"}
        booster = Booster(s.model, self.output.task, params, s.seed, loss)
        valid = None
        if rounds is None and len(held_rows):
            valid = (frames[1], self._target(y_all[held_rows])[0])
        booster.fit(frames[0], y, categorical, valid=valid, rounds=rounds)
        held = booster.predict(frames[1]) if len(held_rows) else np.zeros(0)
        test = booster.predict(frames[2])
        if log:
            held, test = np.expm1(held), np.expm1(test)
        return held, test, booster.best_rounds

    def _answer(self, model: Any, x: pd.DataFrame) -> np.ndarray:
        if len(x) == 0:
            return np.zeros(0)
        if self.output.task == "classification":
            classes = list(model.classes_)
            return np.asarray(model.predict_proba(x))[:, classes.index(self.output.positive)]
        return np.asarray(model.predict(x), dtype=np.float64)

    def _booster_frames(
        self, task: TabularTask, s: Solution, fit_rows: np.ndarray, held_rows: np.ndarray, y: np.ndarray
    ) -> tuple[list[pd.DataFrame], list[str]]:
        """Return model-ready frames of the fit, held-out and test rows, and the categorical columns.

        Categories are typed for the library and, with the engineered features, the recipe's keys get
        cross-fitted target encodings.
        """
        categorical = list(task.roles.categorical)
        frames = [task.train.iloc[fit_rows], task.train.iloc[held_rows], task.test]
        frames = [f.drop(columns=[TEXT], errors="ignore").reset_index(drop=True) for f in frames]
        if s.features == "fe" and len(self.keys[0].columns):
            kind = "binary" if self.output.task == "classification" else "continuous"
            encoder = TargetEncoder(target_type=kind, cv=FOLDS, shuffle=True, random_state=s.seed)
            train_keys, test_keys = self.keys
            keys = [train_keys.iloc[fit_rows], train_keys.iloc[held_rows], test_keys]
            encoded = [encoder.fit_transform(keys[0], y)]
            encoded += [encoder.transform(k) if len(k) else np.zeros((0, k.shape[1])) for k in keys[1:]]
            for frame, values in zip(frames, encoded, strict=True):
                for j, name in enumerate(train_keys.columns):
                    frame[f"te_{name}"] = values[:, j]
        for name in categorical:
            if s.model == "cat":
                for frame in frames:
                    frame[name] = frame[name].astype(object).fillna("(missing)").astype(str)
            else:
                levels = sorted(frames[0][name].dropna().astype(str).unique())
                for frame in frames:
                    frame[name] = pd.Categorical(
                        frame[name].astype(object).where(frame[name].notna()), levels
                    )
        return frames, categorical

    # -- search and ensembles -------------------------------------------------------------------

    def _tuned(self, s: Solution, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        options = s.options
        family, trials = options["family"], int(options["trials"])
        rng = np.random.default_rng(s.seed)
        space = _SPACE[family]
        y = self.base.target[rows]
        best = None
        for _ in range(trials):
            params = {key: values[int(rng.integers(len(values)))] for key, values in space.items()}
            candidate = Solution(family, s.features, tuple(sorted(params.items())), 1.0, s.seed)
            oof, test = self._out_of_fold(candidate, rows)
            seen = ~np.isnan(oof)
            loss = self._loss(oof[seen], y[seen])
            if best is None or loss < best[0]:
                best = (loss, oof, test)
        return best[1], best[2]

    def _ensemble(self, s: Solution, rows: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        chosen = members(s.options["members"], self.output.task)
        predictions = [
            self._out_of_fold(Solution(m.model, m.features, m.params, 1.0, s.seed), rows) for m in chosen
        ]
        oof = np.stack([p[0] for p in predictions], axis=1)
        test = np.stack([p[1] for p in predictions], axis=1)
        if s.model == "blend":
            return oof.mean(axis=1), test.mean(axis=1)
        seen = ~np.isnan(oof).any(axis=1)
        y = self.base.target[rows][seen]
        if self.output.task == "classification":
            logit = lambda p: np.log(np.clip(p, 1e-6, 1 - 1e-6) / (1 - np.clip(p, 1e-6, 1 - 1e-6)))  # noqa: E731
            meta = LogisticRegression(C=1.0, max_iter=1000).fit(logit(oof[seen]), y)
            stacked = np.full(len(rows), np.nan)
            stacked[seen] = meta.predict_proba(logit(oof[seen]))[:, 1]
            return stacked, meta.predict_proba(logit(test))[:, 1]
        _, log = self._target(y)
        scale = (np.log1p, np.expm1) if log else (lambda v: v, lambda v: v)
        seen_oof = np.clip(oof[seen], 0, None) if log else oof[seen]
        meta = LinearRegression(positive=True).fit(scale[0](seen_oof), scale[0](y))
        stacked = np.full(len(rows), np.nan)
        stacked[seen] = scale[1](meta.predict(scale[0](seen_oof)))
        return stacked, scale[1](meta.predict(scale[0](np.clip(test, 0, None) if log else test)))

    # -- submission -----------------------------------------------------------------------------

    def _submission(self, values: np.ndarray) -> pd.DataFrame:
        out = self.output
        if out.mode == "label":
            labels = np.where(values >= 0.5, out.positive, self._negative())
            return out.frame(self.base.test_ids, labels)
        if out.mode == "value" and out.non_negative:
            values = np.clip(values, 0, None)
        return out.frame(self.base.test_ids, values)

    def _negative(self) -> Any:
        classes = sorted(pd.unique(self.base.target).tolist())
        return next(c for c in classes if c != self.output.positive)
