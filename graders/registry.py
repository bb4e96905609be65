"""Every metric by name, in one explicit table.

Each entry records what the grader needs besides the function: the direction, the input kind (which
decides how :func:`graders.submission.validate` checks and aligns a submission) and the best possible
score. To add a metric, write a pure function in ``graders/metrics/`` and add one line to ``METRICS``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Literal

from .metrics import accuracy, dice_rle, log_loss, mae, rmse, rmsle, roc_auc

Kind = Literal["labels", "binary_probability", "regression", "probabilities", "rle_mask"]
"""How answers and predictions look.

``labels``
    One column, compared as exact strings (class labels, or strings such as phoneme sequences).
``binary_probability``
    One numeric column in [0, 1]; the answers are 0/1.
``regression``
    One numeric column.
``probabilities``
    One numeric column per class; each submitted row is a distribution (values in [0, 1], sum 1).
    The answers are one-hot.
``rle_mask``
    One string column: a run-length encoded binary mask (see :mod:`graders.rle`); blank = empty mask.
"""

KINDS: tuple[Kind, ...] = ("labels", "binary_probability", "regression", "probabilities", "rle_mask")


@dataclass(frozen=True)
class Metric:
    """A registered metric.

    Attributes
    ----------
    name
        The registry key, as written in ``competition.yaml`` under ``metric.name``.
    fn
        ``fn(y_true, y_pred, **args) -> float``, taking the arrays ``validate`` returns.
    higher_is_better
        Direction of the score; medals and leaderboard checks follow it.
    kind
        Input kind, one of :data:`KINDS`.
    best
        The score of a perfect prediction.
    min_value
        Smallest prediction the metric accepts (checked at validation), or None for no bound.

    """

    name: str
    fn: Callable[..., float]
    higher_is_better: bool
    kind: Kind
    best: float
    min_value: float | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"metric {self.name!r}: kind {self.kind!r} is not one of {KINDS}")


METRICS: dict[str, Metric] = {
    "accuracy": Metric("accuracy", accuracy, higher_is_better=True, kind="labels", best=1.0),
    "roc_auc": Metric("roc_auc", roc_auc, higher_is_better=True, kind="binary_probability", best=1.0),
    "log_loss": Metric("log_loss", log_loss, higher_is_better=False, kind="probabilities", best=0.0),
    "rmse": Metric("rmse", rmse, higher_is_better=False, kind="regression", best=0.0),
    "rmsle": Metric("rmsle", rmsle, higher_is_better=False, kind="regression", best=0.0, min_value=0.0),
    "mae": Metric("mae", mae, higher_is_better=False, kind="regression", best=0.0),
    "dice_rle": Metric("dice_rle", dice_rle, higher_is_better=True, kind="rle_mask", best=1.0),
}


def get_metric(name: str) -> Metric:
    """Look a metric up by name.

    Raises
    ------
    KeyError
        If the name is unknown; the message lists every known name.

    Examples
    --------
    >>> get_metric("rmse").higher_is_better
    False
    >>> get_metric("rmse2")
    Traceback (most recent call last):
    ...
    KeyError: "unknown metric 'rmse2' (known: accuracy, dice_rle, log_loss, mae, rmse, rmsle, roc_auc)"

    """
    try:
        return METRICS[name]
    except KeyError:
        known = ", ".join(sorted(METRICS))
        raise KeyError(f"unknown metric {name!r} (known: {known})") from None


def metric_arg_problems(name: str, args: Mapping[str, Any]) -> list[str]:
    """Problems with the keyword arguments a competition passes to a metric (empty when they fit).

    Lets the competition checker catch a missing ``height`` or a misspelt option before any grading.

    Examples
    --------
    >>> metric_arg_problems("dice_rle", {"height": 101, "width": 101})
    []
    >>> metric_arg_problems("dice_rle", {"height": 101})
    ["metric 'dice_rle': missing a required argument: 'width'"]
    >>> metric_arg_problems("rmse", {"squared": True})
    ["metric 'rmse': got an unexpected keyword argument 'squared'"]

    """
    metric = get_metric(name)
    try:
        inspect.signature(metric.fn).bind(None, None, **args)
    except TypeError as exc:
        return [f"metric {name!r}: {exc}"]
    return []
