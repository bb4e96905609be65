"""Gradient-boosting families for the strong end of tabular leaderboards: LightGBM and CatBoost.

These libraries belong to the authoring tool only (the ``authoring`` extra of ``pyproject.toml``); they
are imported when a booster is built, and a missing one raises :class:`BoosterMissing` naming the extra.

A booster solution's ``params`` mix the library's own hyper-parameters (passed through) with a few
keys read here:

- ``lr``, ``leaves`` (LightGBM) or ``depth`` (CatBoost), ``rounds`` (the most trees; early stopping on
  the validation fold picks fewer), ``sub`` (row subsample), ``col`` (feature subsample), ``leaf``
  (smallest leaf), ``l2`` (L2 penalty).

Every model is seeded and single-threaded, so a rebuild reproduces its predictions.
"""

from __future__ import annotations

import importlib
from typing import Any

import numpy as np
import pandas as pd

__all__ = ["BOOSTERS", "BoosterMissing", "Booster", "require"]

BOOSTERS = frozenset({"lgbm", "cat"})
_LIBRARIES = {"lgbm": "lightgbm", "cat": "catboost"}
EARLY_STOP = 50


class BoosterMissing(ImportError):
    """A gradient-boosting library of the reference population is not installed."""


def require(family: str) -> Any:
    """Import the library behind ``family`` or raise :class:`BoosterMissing` saying how to install it."""
    name = _LIBRARIES[family]
    try:
        return importlib.import_module(name)
    except ImportError as error:
        raise BoosterMissing(
            f"reference solution family {family!r} needs {name}, an authoring dependency: "
            "pip install -e '.[authoring]'"
        ) from error


class Booster:
    """One gradient-boosted model: fit with early stopping on a validation set, or for a fixed size.

    ``task`` is ``"classification"`` (binary, probability of class 1) or ``"regression"`` (``loss`` picks
    ``l2`` or ``l1``). ``categorical`` names the columns the library treats natively as categories.
    """

    def __init__(self, family: str, task: str, params: dict[str, Any], seed: int, loss: str = "l2"):
        if family not in BOOSTERS:
            raise ValueError(f"unknown booster family {family!r} (known: {sorted(BOOSTERS)})")
        self.family, self.task, self.params, self.seed, self.loss = family, task, dict(params), seed, loss
        self.best_rounds: int | None = None

    def fit(
        self,
        x: pd.DataFrame,
        y: np.ndarray,
        categorical: list[str],
        valid: tuple[pd.DataFrame, np.ndarray] | None = None,
        rounds: int | None = None,
    ) -> Booster:
        """Fit on ``x, y``; with ``valid`` stop early on it, with ``rounds`` grow exactly that many trees."""
        library = require(self.family)
        p = self.params
        size = int(rounds or p.get("rounds", 1000))
        if self.family == "lgbm":
            kw = dict(
                n_estimators=size,
                learning_rate=float(p.get("lr", 0.05)),
                num_leaves=int(p.get("leaves", 31)),
                min_child_samples=int(p.get("leaf", 20)),
                subsample=float(p.get("sub", 1.0)),
                subsample_freq=1 if float(p.get("sub", 1.0)) < 1 else 0,
                colsample_bytree=float(p.get("col", 1.0)),
                reg_lambda=float(p.get("l2", 0.0)),
                max_cat_to_onehot=8,
                cat_smooth=10.0,
                random_state=self.seed,
                n_jobs=1,
                deterministic=True,
                force_col_wise=True,
                verbose=-1,
            )
            if self.task == "classification":
                model = library.LGBMClassifier(**kw)
            else:
                model = library.LGBMRegressor(objective="l1" if self.loss == "l1" else "l2", **kw)
            fit: dict[str, Any] = {"categorical_feature": categorical or "auto"}
            if valid is not None:
                fit["eval_set"] = [valid]
                fit["callbacks"] = [library.early_stopping(EARLY_STOP, verbose=False)]
            model.fit(x, y, **fit)
            self.best_rounds = int(model.best_iteration_ or size) if valid is not None else size
        else:
            kw = dict(
                iterations=size,
                learning_rate=float(p.get("lr", 0.05)),
                depth=int(p.get("depth", 6)),
                l2_leaf_reg=float(p.get("l2", 3.0)),
                random_seed=self.seed,
                thread_count=1,
                allow_writing_files=False,
                verbose=False,
            )
            if float(p.get("sub", 1.0)) < 1:
                kw.update(bootstrap_type="Bernoulli", subsample=float(p["sub"]))
            if float(p.get("col", 1.0)) < 1:
                kw["rsm"] = float(p["col"])
            if self.task == "classification":
                model = library.CatBoostClassifier(**kw)
            else:
                model = library.CatBoostRegressor(loss_function="MAE" if self.loss == "l1" else "RMSE", **kw)
            fit = {"cat_features": categorical}
            if valid is not None:
                fit.update(eval_set=valid, early_stopping_rounds=EARLY_STOP, use_best_model=True)
            model.fit(x, y, **fit)
            self.best_rounds = int(model.get_best_iteration() + 1) if valid is not None else size
        self.model_ = model
        return self

    def predict(self, x: pd.DataFrame) -> np.ndarray:
        """Probability of class 1 (classification) or the predicted value (regression)."""
        if self.task == "classification":
            return np.asarray(self.model_.predict_proba(x))[:, 1]
        return np.asarray(self.model_.predict(x), dtype=np.float64).ravel()
