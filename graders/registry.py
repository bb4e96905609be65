"""Every metric by name, in one explicit table: the function, the direction and the best score.

Each entry extends the metric's validation entry (:class:`graders.inputs.Inputs`: its input kind and
bounds, which decide how :func:`graders.submission.validate` checks and aligns a submission), so a
:class:`Metric` can be passed wherever validation wants an entry. To add a metric, write a pure function in
``graders/metrics/``, add its validation entry to ``graders/inputs.py`` and one line to ``METRICS`` here.

A flag never changes what a metric is: where MLE-bench v1 departs from a metric's definition, the v1-faithful
function keeps the metric's name (what competitions declare, so scores match v1) and the corrected one is its
own entry, ``<name>_fixed``.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any

import numpy as np

from .inputs import Inputs, get_inputs
from .metrics.ab_tests import ab_test_score
from .metrics.accuracy import accuracy, top1_error
from .metrics.agreement import mcc, quadratic_weighted_kappa
from .metrics.bias_auc import jigsaw_bias_auc, jigsaw_bias_auc_fixed
from .metrics.cell_order import kendall_tau_cell_order
from .metrics.change_points import change_point_f1
from .metrics.coco_map import coco_map, coco_map_fixed
from .metrics.correlation import pearson, spearman_mean_columns
from .metrics.dice_global_rle import dice_global_rle
from .metrics.dice_hausdorff import dice_hausdorff, dice_hausdorff_fixed
from .metrics.dice_rle import dice_rle
from .metrics.dice_rle_sized import dice_rle_sized
from .metrics.edit_distance import levenshtein_mean, normalized_levenshtein
from .metrics.f1 import f1_macro, f1_micro, f1_micro_multilabel, f1_micro_multilabel_fixed, probabilistic_f1
from .metrics.f_beta_rle import f_beta_rle
from .metrics.gini import normalized_gini
from .metrics.haversine_p50_p95 import haversine_p50_p95, haversine_p50_p95_fixed
from .metrics.iou_threshold_precision import iou_threshold_precision, iou_threshold_precision_fixed
from .metrics.jaccard import jaccard_words, jaccard_words_fixed
from .metrics.kl_divergence import kl_divergence
from .metrics.kuzushiji_f1 import kuzushiji_f1
from .metrics.laplace_log_likelihood import laplace_log_likelihood, last_weeks_rows
from .metrics.log_loss import binary_log_loss, log_loss
from .metrics.log_mae_by_group import log_mae_by_group, log_mae_by_group_fixed
from .metrics.mae_masked import kept_rows, mae_masked
from .metrics.map_3d import map_3d
from .metrics.mcrmse import mcrmse, mcrmse_fixed
from .metrics.mean_angular_error import mean_angular_error
from .metrics.mean_rmsle_columns import mean_rmsle_columns, mean_rmsle_columns_fixed
from .metrics.ranking import lwlrap, map_at_k
from .metrics.regression import mae, rmse, rmsle
from .metrics.roc_auc import labelled_rows, roc_auc, roc_auc_flattened, roc_auc_mean_columns
from .metrics.voc_map import voc_map
from .metrics.weighted_auc import roc_auc_weighted_tpr
from .metrics.weighted_log_loss import weighted_multilabel_log_loss


@dataclass(frozen=True, kw_only=True)
class Metric(Inputs):
    """A registered metric: its validation entry (name, kind, bounds; see :class:`Inputs`) and its scoring.

    Attributes
    ----------
    fn
        ``fn(y_true, y_pred, **args) -> float``, taking the arrays ``validate`` returns.
    higher_is_better
        Direction of the score; medals and leaderboard checks follow it.
    best
        The score of a perfect prediction.
    scored_rows
        ``scored_rows(y_true, **args) -> bool mask`` of the answer rows the metric scores, where it leaves
        some out (jigsaw's -1 rows, osic's earlier weeks); None: every row counts. Grading in v1 mode reads
        it where v1 drops those rows before pairing (``submission.v1.unscored: drop``).

    """

    fn: Callable[..., float]
    higher_is_better: bool
    best: float
    scored_rows: Callable[..., np.ndarray] | None = None


def _metric(
    name: str,
    fn: Callable[..., float],
    *,
    higher_is_better: bool,
    best: float,
    scored_rows: Callable[..., np.ndarray] | None = None,
) -> Metric:
    """Build the metric ``name``: its entry in ``graders.inputs.INPUTS``, extended with how it scores."""
    inputs = get_inputs(name)
    known = {f.name: getattr(inputs, f.name) for f in fields(Inputs)}
    return Metric(**known, fn=fn, higher_is_better=higher_is_better, best=best, scored_rows=scored_rows)


_ENTRIES = (
    _metric("accuracy", accuracy, higher_is_better=True, best=1.0),
    _metric("ab_test_score", ab_test_score, higher_is_better=True, best=1.0),
    _metric("change_point_f1", change_point_f1, higher_is_better=True, best=1.0),
    _metric("binary_log_loss", binary_log_loss, higher_is_better=False, best=0.0),
    # v1 loses the first box (id 0), so its perfect score is a little below 1
    _metric("coco_map", coco_map, higher_is_better=True, best=1.0),
    _metric("coco_map_fixed", coco_map_fixed, higher_is_better=True, best=1.0),
    _metric("dice_global_rle", dice_global_rle, higher_is_better=True, best=1.0),
    _metric("dice_hausdorff", dice_hausdorff, higher_is_better=True, best=1.0),
    _metric("dice_hausdorff_fixed", dice_hausdorff_fixed, higher_is_better=True, best=1.0),
    _metric("dice_rle", dice_rle, higher_is_better=True, best=1.0),
    _metric("dice_rle_sized", dice_rle_sized, higher_is_better=True, best=1.0),
    _metric("f1_macro", f1_macro, higher_is_better=True, best=1.0),
    _metric("f1_micro", f1_micro, higher_is_better=True, best=1.0),
    _metric("f1_micro_multilabel", f1_micro_multilabel, higher_is_better=True, best=1.0),
    _metric("f1_micro_multilabel_fixed", f1_micro_multilabel_fixed, higher_is_better=True, best=1.0),
    _metric("f_beta_rle", f_beta_rle, higher_is_better=True, best=1.0),
    _metric("haversine_p50_p95", haversine_p50_p95, higher_is_better=False, best=0.0),
    _metric("haversine_p50_p95_fixed", haversine_p50_p95_fixed, higher_is_better=False, best=0.0),
    _metric("iou_threshold_precision", iou_threshold_precision, higher_is_better=True, best=1.0),
    _metric("iou_threshold_precision_fixed", iou_threshold_precision_fixed, higher_is_better=True, best=1.0),
    _metric("jaccard_words", jaccard_words, higher_is_better=True, best=1.0),
    _metric("jaccard_words_fixed", jaccard_words_fixed, higher_is_better=True, best=1.0),
    _metric("jigsaw_bias_auc", jigsaw_bias_auc, higher_is_better=True, best=1.0),
    _metric("jigsaw_bias_auc_fixed", jigsaw_bias_auc_fixed, higher_is_better=True, best=1.0),
    _metric("kendall_tau_cell_order", kendall_tau_cell_order, higher_is_better=True, best=1.0),
    _metric("kl_divergence", kl_divergence, higher_is_better=False, best=0.0),
    _metric("kuzushiji_f1", kuzushiji_f1, higher_is_better=True, best=1.0),
    # best: exact FVC with the smallest confidence that counts (70), -log(sqrt(2) * 70)
    _metric(
        "laplace_log_likelihood",
        laplace_log_likelihood,
        higher_is_better=True,
        best=-4.595068832329332,
        scored_rows=last_weeks_rows,
    ),
    _metric("levenshtein_mean", levenshtein_mean, higher_is_better=False, best=0.0),
    _metric("log_loss", log_loss, higher_is_better=False, best=0.0),
    # v1: an exact group gives log(0), so a perfect submission scores -inf
    _metric("log_mae_by_group", log_mae_by_group, higher_is_better=False, best=float("-inf")),
    # Kaggle floors each group's MAE at 1e-9, so a perfect submission scores log(1e-9)
    _metric("log_mae_by_group_fixed", log_mae_by_group_fixed, higher_is_better=False, best=math.log(1e-9)),
    _metric("lwlrap", lwlrap, higher_is_better=True, best=1.0),
    _metric("mae", mae, higher_is_better=False, best=0.0),
    _metric("mae_masked", mae_masked, higher_is_better=False, best=0.0, scored_rows=kept_rows),
    _metric("map_3d", map_3d, higher_is_better=True, best=1.0),
    _metric("map_at_k", map_at_k, higher_is_better=True, best=1.0),
    _metric("mcc", mcc, higher_is_better=True, best=1.0),
    _metric("mcrmse", mcrmse, higher_is_better=False, best=0.0),
    _metric("mcrmse_fixed", mcrmse_fixed, higher_is_better=False, best=0.0),
    _metric("mean_angular_error", mean_angular_error, higher_is_better=False, best=0.0),
    _metric("mean_rmsle_columns", mean_rmsle_columns, higher_is_better=False, best=0.0),
    _metric("mean_rmsle_columns_fixed", mean_rmsle_columns_fixed, higher_is_better=False, best=0.0),
    _metric("normalized_gini", normalized_gini, higher_is_better=True, best=1.0),
    _metric("normalized_levenshtein", normalized_levenshtein, higher_is_better=False, best=0.0),
    _metric("pearson", pearson, higher_is_better=True, best=1.0),
    _metric("probabilistic_f1", probabilistic_f1, higher_is_better=True, best=1.0),
    _metric("quadratic_weighted_kappa", quadratic_weighted_kappa, higher_is_better=True, best=1.0),
    _metric("rmse", rmse, higher_is_better=False, best=0.0),
    _metric("rmsle", rmsle, higher_is_better=False, best=0.0),
    _metric("roc_auc", roc_auc, higher_is_better=True, best=1.0),
    _metric("roc_auc_flattened", roc_auc_flattened, higher_is_better=True, best=1.0),
    _metric(
        "roc_auc_mean_columns",
        roc_auc_mean_columns,
        higher_is_better=True,
        best=1.0,
        scored_rows=labelled_rows,
    ),
    _metric("roc_auc_weighted_tpr", roc_auc_weighted_tpr, higher_is_better=True, best=1.0),
    _metric("spearman_mean_columns", spearman_mean_columns, higher_is_better=True, best=1.0),
    _metric("top1_error", top1_error, higher_is_better=False, best=0.0),
    _metric("voc_map", voc_map, higher_is_better=True, best=1.0),
    _metric("weighted_multilabel_log_loss", weighted_multilabel_log_loss, higher_is_better=False, best=0.0),
)

METRICS: dict[str, Metric] = {metric.name: metric for metric in _ENTRIES}
"""Every metric, by registry name (the names of ``graders.inputs.INPUTS``)."""


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
    >>> get_metric("rmse2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    KeyError: "unknown metric 'rmse2' (known: ab_test_score, accuracy, ...)"

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
