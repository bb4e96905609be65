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

from .metrics import (  # families A (classification, ranking, text) and B (regression, masks, boxes)
    accuracy,
    binary_log_loss,
    coco_map,
    dice_global_rle,
    dice_hausdorff,
    dice_rle,
    dice_rle_sized,
    f1_macro,
    f1_micro,
    f1_micro_multilabel,
    f_beta_rle,
    haversine_p50_p95,
    iou_threshold_precision,
    jaccard_words,
    jigsaw_bias_auc,
    kendall_tau_cell_order,
    kl_divergence,
    kuzushiji_f1,
    laplace_log_likelihood,
    levenshtein_mean,
    log_loss,
    log_mae_by_group,
    lwlrap,
    mae,
    mae_masked,
    map_3d,
    map_at_k,
    mcc,
    mcrmse,
    mean_angular_error,
    mean_rmsle_columns,
    normalized_levenshtein,
    pearson,
    probabilistic_f1,
    quadratic_weighted_kappa,
    rmse,
    rmsle,
    roc_auc,
    roc_auc_flattened,
    roc_auc_mean_columns,
    roc_auc_weighted_tpr,
    spearman_mean_columns,
    top1_error,
    voc_map,
    weighted_multilabel_log_loss,
)

Kind = Literal[
    "labels", "binary_probability", "regression", "probabilities", "rle_mask", "numeric_table", "rle_table",
    "binary_score", "numeric_columns", "text", "permutation", "boxes", "points", "integer_sequence",
    "integer_labels",
]
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
``numeric_table``
    One or more numeric columns, scored together with answer-only columns (groups, masks, sizes).
    ``y_true`` is the answers frame (every column, strings, answers' row order, index 0..n-1);
    ``y_pred`` holds the submitted columns as floats in the same row order, indexed by each row's
    0-based position in the submission file (so v1's positional quirks can be reproduced).
``rle_table``
    One RLE string column (``-`` also means an empty mask) whose mask sizes vary by row and come from
    answer-only columns. ``y_true`` and ``y_pred`` are frames as for ``numeric_table`` (strings).
``boxes``
    One string column of fixed-size tuples (a label and numbers per box), laid out as
    ``graders.metrics._boxes.LAYOUTS[metric name]``; frames as for ``rle_table``.
``binary_score``
    One numeric column of scores, any finite real number (no [0, 1] check); the answers are 0/1.
``numeric_columns``
    One or more numeric columns, any finite values; ``y_true`` and ``y_pred`` are 2-D float arrays with
    the columns in ``submission.columns`` order.
``text``
    One string column taken as is: blank cells are allowed (an empty list, set or string).
``permutation``
    One string column of whitespace-separated tokens; each submitted row must hold exactly the tokens of
    its answer row, in any order.
``points``
    One string column of ``label x y`` triples (blank = none; x and y finite numbers); the answers hold
    ``label x y w h`` boxes. ``y_true`` and ``y_pred`` are 1-D string arrays.
``integer_sequence``
    One string column of whitespace-separated integers, at least one per cell; 1-D string arrays.
``integer_labels``
    One numeric column of class ids, compared as integers: ``3``, ``03`` and ``3.0`` are the same class
    and a fraction is truncated toward zero, as MLE-bench's ``astype(int)`` does. 1-D int64 arrays.
"""

KINDS: tuple[Kind, ...] = (
    "labels", "binary_probability", "regression", "probabilities", "rle_mask", "numeric_table", "rle_table",
    "binary_score", "numeric_columns", "text", "permutation", "boxes", "points", "integer_sequence",
    "integer_labels",
)


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
    whole_numbers
        Predictions must be whole numbers (``3`` or ``3.0``): class labels scored by a scikit-learn
        classification metric, which refuses fractions (v1 then has no score).

    """

    name: str
    fn: Callable[..., float]
    higher_is_better: bool
    kind: Kind
    best: float
    min_value: float | None = None
    whole_numbers: bool = False

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
    # family A
    "top1_error": Metric(
        "top1_error", top1_error, higher_is_better=False, kind="integer_sequence", best=0.0
    ),
    "roc_auc_mean_columns": Metric(
        "roc_auc_mean_columns", roc_auc_mean_columns, higher_is_better=True, kind="numeric_columns", best=1.0
    ),
    "roc_auc_flattened": Metric(
        "roc_auc_flattened", roc_auc_flattened, higher_is_better=True, kind="binary_probability", best=1.0
    ),
    "roc_auc_weighted_tpr": Metric(
        "roc_auc_weighted_tpr", roc_auc_weighted_tpr, higher_is_better=True, kind="binary_score", best=1.0
    ),
    "binary_log_loss": Metric(
        "binary_log_loss", binary_log_loss, higher_is_better=False, kind="binary_probability", best=0.0
    ),
    "kl_divergence": Metric(
        "kl_divergence", kl_divergence, higher_is_better=False, kind="probabilities", best=0.0
    ),
    "f1_macro": Metric("f1_macro", f1_macro, higher_is_better=True, kind="integer_labels", best=1.0),
    "f1_micro": Metric("f1_micro", f1_micro, higher_is_better=True, kind="labels", best=1.0),
    "f1_micro_multilabel": Metric(
        "f1_micro_multilabel", f1_micro_multilabel, higher_is_better=True, kind="text", best=1.0
    ),
    "probabilistic_f1": Metric(
        "probabilistic_f1", probabilistic_f1, higher_is_better=True, kind="binary_score", best=1.0
    ),
    "quadratic_weighted_kappa": Metric(
        "quadratic_weighted_kappa", quadratic_weighted_kappa, higher_is_better=True, kind="regression",
        best=1.0, whole_numbers=True,
    ),
    "spearman_mean_columns": Metric(
        "spearman_mean_columns", spearman_mean_columns, higher_is_better=True, kind="numeric_columns",
        best=1.0,
    ),
    "pearson": Metric("pearson", pearson, higher_is_better=True, kind="regression", best=1.0),
    "kendall_tau_cell_order": Metric(
        "kendall_tau_cell_order", kendall_tau_cell_order, higher_is_better=True, kind="permutation", best=1.0
    ),
    "map_at_k": Metric("map_at_k", map_at_k, higher_is_better=True, kind="text", best=1.0),
    "lwlrap": Metric("lwlrap", lwlrap, higher_is_better=True, kind="numeric_columns", best=1.0),
    "mcc": Metric(  # 1.0 == 1, as in v1
        "mcc", mcc, higher_is_better=True, kind="regression", best=1.0, whole_numbers=True
    ),
    "jaccard_words": Metric("jaccard_words", jaccard_words, higher_is_better=True, kind="text", best=1.0),
    "levenshtein_mean": Metric(
        "levenshtein_mean", levenshtein_mean, higher_is_better=False, kind="text", best=0.0
    ),
    "normalized_levenshtein": Metric(
        "normalized_levenshtein", normalized_levenshtein, higher_is_better=False, kind="integer_sequence",
        best=0.0,
    ),
    # family B
    "mcrmse": Metric("mcrmse", mcrmse, higher_is_better=False, kind="numeric_table", best=0.0),
    "mean_rmsle_columns": Metric(
        "mean_rmsle_columns", mean_rmsle_columns, higher_is_better=False, kind="numeric_table", best=0.0,
        min_value=0.0,
    ),
    "log_mae_by_group": Metric(  # v1: an exact group gives log(0), so a perfect submission scores -inf
        "log_mae_by_group", log_mae_by_group, higher_is_better=False, kind="numeric_table", best=float("-inf")
    ),
    "mean_angular_error": Metric(
        "mean_angular_error", mean_angular_error, higher_is_better=False, kind="numeric_table", best=0.0
    ),
    "haversine_p50_p95": Metric(
        "haversine_p50_p95", haversine_p50_p95, higher_is_better=False, kind="numeric_table", best=0.0
    ),
    "laplace_log_likelihood": Metric(  # best: exact FVC with the smallest confidence that counts (70)
        "laplace_log_likelihood", laplace_log_likelihood, higher_is_better=True, kind="numeric_table",
        best=-4.595068832329332,  # -log(sqrt(2) * 70)
    ),
    "dice_global_rle": Metric(
        "dice_global_rle", dice_global_rle, higher_is_better=True, kind="rle_table", best=1.0
    ),
    "dice_rle_sized": Metric(
        "dice_rle_sized", dice_rle_sized, higher_is_better=True, kind="rle_table", best=1.0
    ),
    "mae_masked": Metric("mae_masked", mae_masked, higher_is_better=False, kind="numeric_table", best=0.0),
    "iou_threshold_precision": Metric(
        "iou_threshold_precision", iou_threshold_precision, higher_is_better=True, kind="rle_mask", best=1.0
    ),
    "f_beta_rle": Metric("f_beta_rle", f_beta_rle, higher_is_better=True, kind="rle_mask", best=1.0),
    "dice_hausdorff": Metric(
        "dice_hausdorff", dice_hausdorff, higher_is_better=True, kind="rle_table", best=1.0
    ),
    "voc_map": Metric("voc_map", voc_map, higher_is_better=True, kind="boxes", best=1.0),
    "map_3d": Metric("map_3d", map_3d, higher_is_better=True, kind="boxes", best=1.0),
    "coco_map": Metric(  # v1 loses the first box (id 0), so its perfect score is a little below 1
        "coco_map", coco_map, higher_is_better=True, kind="boxes", best=1.0
    ),
    "kuzushiji_f1": Metric("kuzushiji_f1", kuzushiji_f1, higher_is_better=True, kind="points", best=1.0),
    "jigsaw_bias_auc": Metric(
        "jigsaw_bias_auc", jigsaw_bias_auc, higher_is_better=True, kind="numeric_table", best=1.0
    ),
    "weighted_multilabel_log_loss": Metric(
        "weighted_multilabel_log_loss", weighted_multilabel_log_loss, higher_is_better=False,
        kind="numeric_table", best=0.0, min_value=0.0,
    ),
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
    >>> get_metric("rmse2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    KeyError: "unknown metric 'rmse2' (known: accuracy, ...)"

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
