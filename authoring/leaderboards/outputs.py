"""What a submission's answer columns hold, and how a fitted model's predictions become those columns.

Four shapes cover the classification and regression competitions:

- ``label``: one column of predicted classes (accuracy-style metrics);
- ``probability``: one column, the probability of the positive class (ROC AUC, binary log loss);
- ``class-probabilities``: one column per class, each row summing to 1 (multi-class log loss); the
  column names are the class labels of the training target;
- ``value``: one column of real numbers (regression); clipped at 0 when every training target is >= 0,
  since such metrics (RMSLE) are undefined for negative predictions.

The shape is the metric kind's ``prediction`` (:class:`graders.kinds.Kind`); kinds without one (masks,
boxes, text, tables) have no reference-solution output here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from graders.kinds import KINDS, Kind

__all__ = ["Output", "infer_output"]


@dataclass(frozen=True)
class Output:
    """The answer columns of one competition and the shape of their values."""

    mode: str
    id_column: str
    columns: tuple[str, ...]
    positive: Any = 1
    non_negative: bool = False

    @property
    def task(self) -> str:
        """``"regression"`` for value outputs, else ``"classification"``."""
        return "regression" if self.mode == "value" else "classification"

    def submission(self, ids: pd.Series, model: Any, features: Any) -> pd.DataFrame:
        """Predict ``features`` with the fitted ``model`` and lay the result out as a submission."""
        if self.mode == "value":
            values = np.asarray(model.predict(features), dtype=np.float64)
            return self.frame(ids, np.clip(values, 0, None) if self.non_negative else values)
        if self.mode == "label":
            return self.frame(ids, np.asarray(model.predict(features)))
        return self.frame(ids, self.probabilities(model.predict_proba(features), list(model.classes_)))

    def probabilities(self, proba: np.ndarray, classes: list[Any]) -> np.ndarray:
        """Re-order ``predict_proba`` columns to the answer columns (absent classes get 0; rows sum to 1)."""
        proba = np.asarray(proba, dtype=np.float64)
        if self.mode == "probability":
            if self.positive not in classes:
                return np.zeros(len(proba))
            return proba[:, classes.index(self.positive)]
        lookup = {str(c): i for i, c in enumerate(classes)}
        out = np.zeros((len(proba), len(self.columns)))
        for j, name in enumerate(self.columns):
            if name in lookup:
                out[:, j] = proba[:, lookup[name]]
        return out / out.sum(axis=1, keepdims=True)

    def frame(self, ids: pd.Series, values: np.ndarray) -> pd.DataFrame:
        """Lay values out as a submission frame: the id column, then the answer column(s)."""
        frame = pd.DataFrame({self.id_column: ids.to_numpy()})
        values = np.asarray(values)
        if values.ndim == 2:
            for j, name in enumerate(self.columns):
                frame[name] = values[:, j]
        else:
            frame[self.columns[0]] = values
        return frame


def infer_output(id_column: str, columns: list[str], metric_kind: Kind, target: pd.Series) -> Output:
    """Choose the output shape for a ``metric_kind`` (a :mod:`graders.kinds` kind) and a training target.

    >>> from graders.kinds import BINARY_PROBABILITY, REGRESSION
    >>> infer_output("id", ["y"], BINARY_PROBABILITY, pd.Series([0, 1, 1, 0]))
    Output(mode='probability', id_column='id', columns=('y',), positive=1, non_negative=True)
    >>> infer_output("id", ["price"], REGRESSION, pd.Series([3.5, 1.0])).mode
    'value'
    """
    if metric_kind.prediction is None:
        known = sorted(k.name for k in KINDS if k.prediction is not None)
        raise ValueError(
            f"no reference-solution output for metric kind {metric_kind.name!r} (known: {known})"
        )
    non_negative = bool(pd.api.types.is_numeric_dtype(target) and (target.dropna() >= 0).all())
    return Output(metric_kind.prediction, id_column, tuple(columns), _positive_class(target), non_negative)


def _positive_class(target: pd.Series) -> Any:
    values = sorted(target.dropna().unique().tolist())
    return 1 if 1 in values else values[-1]
