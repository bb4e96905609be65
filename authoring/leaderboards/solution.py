"""One reference solution: model family, features, hyper-parameters, share of the data, seed.

A :class:`Solution` is a plain, hashable record. It knows nothing about data; a task module (``tabular``,
``images``, ``segmentation``, ``transduction``, ``series``) turns it into predictions. Its :attr:`team` is the
stable, readable name the solution carries on the leaderboard, e.g. ``hgb-lr0.1-d6-f1.00-s0``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Solution", "solution"]

# Short names for hyper-parameters in team names; anything not listed keeps its own name.
_ABBREVIATIONS = {
    "learning_rate": "lr",
    "max_depth": "d",
    "max_iter": "it",
    "n_estimators": "n",
    "n_neighbors": "k",
    "min_samples_leaf": "leaf",
    "max_features": "mf",
    "hidden_layer_sizes": "h",
    "alpha": "a",
    "strategy": "",
    "target": "y",
    "weights": "w",
    "sigma": "sig",
    "window": "w",
    "offset": "off",
    "percentile": "p",
    "min_size": "min",
    "left": "l",
    "right": "r",
    "ngram": "n",
    "components": "pc",
    "pixels": "px",
    "family": "",
    "members": "",
}


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return f"{value:g}"
    if isinstance(value, (list, tuple)):
        return "x".join(_format_value(v) for v in value)
    if value is None:
        return "none"
    return str(value)


@dataclass(frozen=True)
class Solution:
    """A reference solution, i.e. one leaderboard team.

    Attributes:
        model: model family key, e.g. ``"hgb"``, ``"logistic"``, ``"otsu"``, ``"context"``.
        features: feature-set key understood by the task module, e.g. ``"all"``, ``"numeric"``, ``"pool2"``.
        params: hyper-parameters as ``(name, value)`` pairs, in the order given (hashable); see
            :func:`solution`.
        train_fraction: share of the training rows (or images, or words) the solution learns from.
        seed: seeds the row subsample and the model.

    """

    model: str
    features: str = "all"
    params: tuple[tuple[str, Any], ...] = field(default=())
    train_fraction: float = 1.0
    seed: int = 0

    @property
    def options(self) -> dict[str, Any]:
        """The hyper-parameters as a dict."""
        return dict(self.params)

    @property
    def team(self) -> str:
        """Stable readable team name: model, parameters, feature set (unless all/none), fraction, seed."""
        parts = [self.model]
        for name, value in self.params:
            parts.append(f"{_ABBREVIATIONS.get(name, name)}{_format_value(value)}")
        if self.features not in ("all", "none"):
            parts.append(self.features)
        parts.append(f"f{self.train_fraction:.2f}")
        parts.append(f"s{self.seed}")
        return "-".join(parts)

    def params_json(self) -> str:
        """Return the hyper-parameters as compact JSON (the leaderboard's ``params`` column)."""
        return json.dumps(self.options, sort_keys=True, separators=(",", ":"))


def solution(
    model: str, features: str = "all", fraction: float = 1.0, seed: int = 0, **params: Any
) -> Solution:
    """Build a :class:`Solution` with keyword hyper-parameters.

    >>> solution("hgb", learning_rate=0.1, max_depth=6).team
    'hgb-lr0.1-d6-f1.00-s0'
    >>> solution("knn", "numeric", 0.25, 3, n_neighbors=5).team
    'knn-k5-numeric-f0.25-s3'
    """
    frozen = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in params.items())
    return Solution(model=model, features=features, params=frozen, train_fraction=fraction, seed=seed)
