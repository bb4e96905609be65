"""Every metric by name with its function: :mod:`graders.inputs`' table joined to :mod:`graders.metrics`.

Each :class:`Metric` extends the metric's entry (:class:`graders.inputs.Inputs`: its input kind and
bounds, which decide how :func:`graders.submission.validate` checks and aligns a submission, its direction
and best score), so it can be passed wherever validation wants an entry. Its function is the one of the
same name in :mod:`graders.metrics`; a metric is added there and in ``graders/inputs.py``, not here.

A flag never changes what a metric is: where MLE-bench v1 departs from a metric's definition, the v1-faithful
function keeps the metric's name (what competitions declare, so scores match v1) and the corrected one is its
own entry, ``<name>_fixed``.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from . import metrics
from .inputs import INPUTS, Inputs, get_inputs


@dataclass(frozen=True, kw_only=True)
class Metric(Inputs):
    """A registered metric: its entry (name, kind, bounds, direction; see :class:`Inputs`) and its functions.

    Attributes
    ----------
    fn
        ``fn(y_true, y_pred, **args) -> float``, taking the arrays ``validate`` returns.
    rows_fn
        The function the entry's ``scored_rows`` names, or None.

    """

    fn: Callable[..., float]
    rows_fn: Callable[..., np.ndarray] | None = None


def _metric(entry: Inputs) -> Metric:
    """Join ``entry`` to its function (and its ``scored_rows``) in :mod:`graders.metrics`."""
    rows = getattr(metrics, entry.scored_rows) if entry.scored_rows else None
    return Metric(
        **{f.name: getattr(entry, f.name) for f in fields(Inputs)},
        fn=getattr(metrics, entry.name),
        rows_fn=rows,
    )


METRICS: dict[str, Metric] = {name: _metric(entry) for name, entry in INPUTS.items()}
"""Every metric, by registry name (the names of ``graders.inputs.INPUTS``), with its function."""


def get_metric(name: str) -> Metric:
    """Look a metric up by name; an unknown name raises :func:`graders.inputs.get_inputs`' KeyError.

    Examples
    --------
    >>> get_metric("rmse").higher_is_better
    False

    """
    return METRICS[get_inputs(name).name]


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
