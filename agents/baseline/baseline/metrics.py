"""Validation metrics: guess the competition metric from ``description.md`` and score predictions.

The guess only steers the internal validation (which candidate model to keep, how to threshold);
the real grading happens outside the agent.
"""

from __future__ import annotations

import re

import numpy as np
from sklearn.metrics import accuracy_score, log_loss, mean_absolute_error, roc_auc_score

# Ordered from most to least specific: "root mean squared log error" must win over "mean squared error".
_PATTERNS: tuple[tuple[str, str], ...] = (
    ("rmsle", r"root mean squared? log|rmsle|squared logarithmic"),
    ("log_loss", r"log[- ]?loss|logarithmic loss|cross[- ]entropy"),
    ("roc_auc", r"\bauc\b|roc curve|area under"),
    ("mae", r"mean absolute error|\bmae\b"),
    ("rmse", r"root mean squared? error|\brmse\b|mean squared error"),
    ("dice", r"\bdice\b"),
    ("exact_match", r"exact[- ]match|word accuracy"),
    ("accuracy", r"\baccuracy\b|classification rate"),
)

HIGHER_IS_BETTER = {
    "accuracy": True,
    "exact_match": True,
    "roc_auc": True,
    "dice": True,
    "log_loss": False,
    "rmse": False,
    "rmsle": False,
    "mae": False,
}


def metric_hint(description: str) -> str | None:
    """Return the metric a description talks about, preferring text after "evaluat…" or "metric".

    Examples:
        >>> metric_hint("Submissions are evaluated on Mean Absolute Error between ...")
        'mae'
        >>> metric_hint("We use the area under the ROC curve.")
        'roc_auc'
        >>> metric_hint("No metric named here.") is None
        True

    """
    text = description.lower()
    anchors = [text.find(word) for word in ("evaluat", "## metric", "metric")]
    regions = [text[a:] for a in anchors if a >= 0] + [text]
    for region in regions:
        found = []
        for name, pattern in _PATTERNS:
            match = re.search(pattern, region)
            if match:
                found.append((match.start(), name))
        if found:
            return min(found)[1]
    return None


def score(metric: str, y_true: np.ndarray, y_pred: np.ndarray) -> float:
    """Score aligned predictions; probabilities are (n,) for binary AUC or (n, k) for log loss.

    Examples:
        >>> score("accuracy", np.array([1, 0, 1]), np.array([1, 1, 1]))
        0.6666666666666666
        >>> round(score("rmsle", np.array([1.0, 3.0]), np.array([1.0, 3.0])), 6)
        0.0

    """
    if metric in ("accuracy", "exact_match"):
        return float(accuracy_score(y_true, y_pred))
    if metric == "roc_auc":
        return float(roc_auc_score(y_true, y_pred))
    if metric == "log_loss":
        proba = np.clip(np.asarray(y_pred, dtype=float), 1e-15, 1.0)
        proba = proba / proba.sum(axis=1, keepdims=True)
        return float(log_loss(y_true, proba, labels=np.arange(proba.shape[1])))
    if metric == "mae":
        return float(mean_absolute_error(y_true, y_pred))
    if metric == "rmse":
        return float(np.sqrt(np.mean((np.asarray(y_true, float) - np.asarray(y_pred, float)) ** 2)))
    if metric == "rmsle":
        t = np.log1p(np.clip(np.asarray(y_true, float), 0, None))
        p = np.log1p(np.clip(np.asarray(y_pred, float), 0, None))
        return float(np.sqrt(np.mean((t - p) ** 2)))
    raise ValueError(f"unknown validation metric {metric!r}; known: {sorted(HIGHER_IS_BETTER)}")


def better(metric: str, a: float, b: float) -> bool:
    """Tell whether score ``a`` is strictly better than ``b`` under ``metric``."""
    return a > b if HIGHER_IS_BETTER[metric] else a < b
