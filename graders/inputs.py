"""What validating a submission needs to know about each metric, in one table that imports no metric code.

An entry names the metric's input kind (:mod:`graders.kinds`) and the bounds its values must respect.
:func:`graders.submission.validate` takes an entry, so the ``validate`` command inside an agent's container
(``environment/validate.py``) looks metrics up here and never loads a metric function. The scoring side of
each metric (its function, direction and best score) is in :mod:`graders.registry`, whose entries extend
these; both tables name the same metrics. Entries are grouped by kind.
"""

from __future__ import annotations

from dataclasses import dataclass

from .boxes import Layout
from .kinds import (
    BINARY_PROBABILITY,
    BINARY_SCORE,
    BOXES,
    INTEGER_LABELS,
    INTEGER_SEQUENCE,
    INTERVAL_DECISIONS,
    KINDS,
    LABELS,
    NUMERIC_COLUMNS,
    NUMERIC_TABLE,
    PERMUTATION,
    POINTS,
    POSITIONS,
    PROBABILITIES,
    REGRESSION,
    RLE_MASK,
    RLE_TABLE,
    TEXT,
    Kind,
)

ROW_SUM_TOLERANCE = 1e-6
"""How far class probabilities may sum from 1, unless the metric or the competition says otherwise."""


@dataclass(frozen=True)
class Inputs:
    """What a metric accepts, as validation checks it.

    Attributes
    ----------
    name
        The metric's registry name, as written in ``competition.yaml`` under ``metric.name``.
    kind
        Input kind, one of :data:`graders.kinds.KINDS`: decides the value checks and the arrays' shape.
    min_value
        Smallest prediction the metric accepts (checked at validation), or None for no bound.
    whole_numbers
        Predictions must be whole numbers (``3`` or ``3.0``): class labels scored by a scikit-learn
        classification metric, which refuses fractions (v1 then has no score).
    row_sum_tolerance
        How far a row of class probabilities may sum from 1 (kind ``probabilities``); a competition's
        ``submission.row_sum_tolerance`` overrides it (lmsys rounds to 6 decimals).
    layout
        How the prediction strings' box tuples are laid out (kinds that need one, ``boxes``), else None.

    """

    name: str
    kind: Kind
    min_value: float | None = None
    whole_numbers: bool = False
    row_sum_tolerance: float = ROW_SUM_TOLERANCE
    layout: Layout | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            known = tuple(k.name for k in KINDS)
            raise ValueError(f"metric {self.name!r}: kind {self.kind!r} is not one of {known}")
        if self.kind.needs_layout != (self.layout is not None):
            need = "needs" if self.kind.needs_layout else "takes no"
            raise ValueError(f"metric {self.name!r}: kind {self.kind.name!r} {need} box layout")


_ENTRIES = (
    Inputs("accuracy", LABELS),
    Inputs("f1_micro", LABELS),
    Inputs("binary_log_loss", BINARY_PROBABILITY),
    Inputs("roc_auc", BINARY_PROBABILITY),
    Inputs("normalized_gini", BINARY_PROBABILITY),
    Inputs("roc_auc_flattened", BINARY_PROBABILITY),
    Inputs("mae", REGRESSION),
    Inputs("mcc", REGRESSION, whole_numbers=True),  # 1.0 == 1, as in v1
    Inputs("pearson", REGRESSION),
    Inputs("quadratic_weighted_kappa", REGRESSION, whole_numbers=True),
    Inputs("rmse", REGRESSION),
    Inputs("rmsle", REGRESSION, min_value=0.0),
    # v1 (hms) asks that a row sum round to 1 at 5 decimals; v1's log-loss graders call
    # np.isclose(sum, 1, atol=1e-6), whose default rtol=1e-5 makes the bound 1.1e-5.
    Inputs("kl_divergence", PROBABILITIES, row_sum_tolerance=5e-6),
    Inputs("log_loss", PROBABILITIES, row_sum_tolerance=1.1e-5),
    Inputs("dice_rle", RLE_MASK),
    Inputs("f_beta_rle", RLE_MASK),
    Inputs("iou_threshold_precision", RLE_MASK),
    Inputs("iou_threshold_precision_fixed", RLE_MASK),
    Inputs("haversine_p50_p95", NUMERIC_TABLE),
    Inputs("haversine_p50_p95_fixed", NUMERIC_TABLE),
    Inputs("jigsaw_bias_auc", NUMERIC_TABLE),
    Inputs("jigsaw_bias_auc_fixed", NUMERIC_TABLE),
    Inputs("laplace_log_likelihood", NUMERIC_TABLE),
    Inputs("log_mae_by_group", NUMERIC_TABLE),
    Inputs("log_mae_by_group_fixed", NUMERIC_TABLE),
    Inputs("mae_masked", NUMERIC_TABLE),
    Inputs("mcrmse", NUMERIC_TABLE),
    Inputs("mcrmse_fixed", NUMERIC_TABLE),
    Inputs("mean_angular_error", NUMERIC_TABLE),
    Inputs("mean_rmsle_columns", NUMERIC_TABLE, min_value=0.0),
    Inputs("mean_rmsle_columns_fixed", NUMERIC_TABLE, min_value=0.0),
    Inputs("weighted_multilabel_log_loss", NUMERIC_TABLE, min_value=0.0),
    Inputs("dice_global_rle", RLE_TABLE),
    Inputs("dice_hausdorff", RLE_TABLE),
    Inputs("dice_hausdorff_fixed", RLE_TABLE),
    Inputs("dice_rle_sized", RLE_TABLE),
    Inputs("probabilistic_f1", BINARY_SCORE),
    Inputs("roc_auc_weighted_tpr", BINARY_SCORE),
    Inputs("lwlrap", NUMERIC_COLUMNS),
    Inputs("roc_auc_mean_columns", NUMERIC_COLUMNS),
    Inputs("spearman_mean_columns", NUMERIC_COLUMNS),
    Inputs("f1_micro_multilabel", TEXT),
    Inputs("f1_micro_multilabel_fixed", TEXT),
    Inputs("jaccard_words", TEXT),
    Inputs("jaccard_words_fixed", TEXT),
    Inputs("levenshtein_mean", TEXT),
    Inputs("map_at_k", TEXT),
    Inputs("kendall_tau_cell_order", PERMUTATION),
    Inputs("coco_map", BOXES, layout=Layout(size=6, label_at=0, blank_ok=False)),  # class score x1 y1 x2 y2
    Inputs("coco_map_fixed", BOXES, layout=Layout(size=6, label_at=0, blank_ok=False)),
    Inputs(  # conf cx cy cz w l h yaw class
        "map_3d", BOXES, layout=Layout(size=9, label_at=8, blank_ok=True, positive=(4, 5, 6))
    ),
    Inputs("voc_map", BOXES, layout=Layout(size=6, label_at=0, blank_ok=False)),  # label conf x1 y1 x2 y2
    Inputs("kuzushiji_f1", POINTS),
    Inputs("normalized_levenshtein", INTEGER_SEQUENCE),
    Inputs("top1_error", INTEGER_SEQUENCE),
    Inputs("f1_macro", INTEGER_LABELS),
    Inputs("change_point_f1", POSITIONS),
    Inputs("ab_test_score", INTERVAL_DECISIONS),
)

INPUTS: dict[str, Inputs] = {entry.name: entry for entry in _ENTRIES}
"""Every metric's validation entry, by registry name."""


def get_inputs(name: str) -> Inputs:
    """Look a metric's validation entry up by name.

    Raises
    ------
    KeyError
        If the name is unknown; the message lists every known name.

    Examples
    --------
    >>> get_inputs("rmsle").min_value
    0.0
    >>> get_inputs("rmse2")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    KeyError: "unknown metric 'rmse2' (known: ab_test_score, accuracy, ...)"

    """
    try:
        return INPUTS[name]
    except KeyError:
        known = ", ".join(sorted(INPUTS))
        raise KeyError(f"unknown metric {name!r} (known: {known})") from None
