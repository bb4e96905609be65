"""Every metric by name, in the one table of the project: what it accepts and how it scores, no metric code.

An entry names the metric's input kind (:mod:`graders.kinds`), the bounds its values must respect, its
direction and best score. :func:`graders.submission.validate` takes an entry, so the ``validate`` command
inside an agent's container (``environment/validate.py``) looks metrics up here and never loads a metric
function. The function that scores a metric is the one of the same name in :mod:`graders.metrics`;
:mod:`graders.registry` joins the two. To add a metric, write a pure function in ``graders/metrics/``,
export it from ``graders/metrics/__init__.py`` and add one line here. Entries are grouped by kind.
"""

from __future__ import annotations

import math
from dataclasses import KW_ONLY, dataclass

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
    higher_is_better
        Direction of the score; medals and leaderboard checks follow it.
    best
        The score of a perfect prediction.
    scored_rows
        The name of a function of :mod:`graders.metrics`, ``scored_rows(y_true, **args) -> bool mask`` of
        the answer rows the metric scores, where it leaves some out (jigsaw's -1 rows, osic's earlier
        weeks); None: every row counts. Grading in v1 mode reads it where v1 drops those rows before pairing
        (``submission.v1.unscored: drop``).

    """

    name: str
    kind: Kind
    min_value: float | None = None
    whole_numbers: bool = False
    row_sum_tolerance: float = ROW_SUM_TOLERANCE
    layout: Layout | None = None
    _: KW_ONLY
    higher_is_better: bool
    best: float
    scored_rows: str | None = None

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            known = tuple(k.name for k in KINDS)
            raise ValueError(f"metric {self.name!r}: kind {self.kind!r} is not one of {known}")
        if self.kind.needs_layout != (self.layout is not None):
            need = "needs" if self.kind.needs_layout else "takes no"
            raise ValueError(f"metric {self.name!r}: kind {self.kind.name!r} {need} box layout")


_ENTRIES = (
    Inputs("accuracy", LABELS, higher_is_better=True, best=1.0),
    Inputs("f1_micro", LABELS, higher_is_better=True, best=1.0),
    Inputs("binary_log_loss", BINARY_PROBABILITY, higher_is_better=False, best=0.0),
    Inputs("roc_auc", BINARY_PROBABILITY, higher_is_better=True, best=1.0),
    Inputs("normalized_gini", BINARY_PROBABILITY, higher_is_better=True, best=1.0),
    Inputs("roc_auc_flattened", BINARY_PROBABILITY, higher_is_better=True, best=1.0),
    Inputs("mae", REGRESSION, higher_is_better=False, best=0.0),
    Inputs("mcc", REGRESSION, whole_numbers=True, higher_is_better=True, best=1.0),  # 1.0 == 1, as in v1
    Inputs("pearson", REGRESSION, higher_is_better=True, best=1.0),
    Inputs("quadratic_weighted_kappa", REGRESSION, whole_numbers=True, higher_is_better=True, best=1.0),
    Inputs("rmse", REGRESSION, higher_is_better=False, best=0.0),
    Inputs("rmsle", REGRESSION, min_value=0.0, higher_is_better=False, best=0.0),
    # v1 (hms) asks that a row sum round to 1 at 5 decimals; v1's log-loss graders call
    # np.isclose(sum, 1, atol=1e-6), whose default rtol=1e-5 makes the bound 1.1e-5.
    Inputs("kl_divergence", PROBABILITIES, row_sum_tolerance=5e-6, higher_is_better=False, best=0.0),
    Inputs("log_loss", PROBABILITIES, row_sum_tolerance=1.1e-5, higher_is_better=False, best=0.0),
    Inputs("dice_rle", RLE_MASK, higher_is_better=True, best=1.0),
    Inputs("f_beta_rle", RLE_MASK, higher_is_better=True, best=1.0),
    Inputs("iou_threshold_precision", RLE_MASK, higher_is_better=True, best=1.0),
    Inputs("iou_threshold_precision_fixed", RLE_MASK, higher_is_better=True, best=1.0),
    Inputs("haversine_p50_p95", NUMERIC_TABLE, higher_is_better=False, best=0.0),
    Inputs("haversine_p50_p95_fixed", NUMERIC_TABLE, higher_is_better=False, best=0.0),
    Inputs("jigsaw_bias_auc", NUMERIC_TABLE, higher_is_better=True, best=1.0),
    Inputs("jigsaw_bias_auc_fixed", NUMERIC_TABLE, higher_is_better=True, best=1.0),
    # best: exact FVC with the smallest confidence that counts (70), -log(sqrt(2) * 70)
    Inputs(
        "laplace_log_likelihood",
        NUMERIC_TABLE,
        higher_is_better=True,
        best=-4.595068832329332,
        scored_rows="last_weeks_rows",
    ),
    # v1: an exact group gives log(0), so a perfect submission scores -inf
    Inputs("log_mae_by_group", NUMERIC_TABLE, higher_is_better=False, best=float("-inf")),
    # Kaggle floors each group's MAE at 1e-9, so a perfect submission scores log(1e-9)
    Inputs("log_mae_by_group_fixed", NUMERIC_TABLE, higher_is_better=False, best=math.log(1e-9)),
    Inputs("mae_masked", NUMERIC_TABLE, higher_is_better=False, best=0.0, scored_rows="kept_rows"),
    Inputs("mcrmse", NUMERIC_TABLE, higher_is_better=False, best=0.0),
    Inputs("mcrmse_fixed", NUMERIC_TABLE, higher_is_better=False, best=0.0),
    Inputs("mean_angular_error", NUMERIC_TABLE, higher_is_better=False, best=0.0),
    Inputs("mean_rmsle_columns", NUMERIC_TABLE, min_value=0.0, higher_is_better=False, best=0.0),
    Inputs("mean_rmsle_columns_fixed", NUMERIC_TABLE, min_value=0.0, higher_is_better=False, best=0.0),
    Inputs("weighted_multilabel_log_loss", NUMERIC_TABLE, min_value=0.0, higher_is_better=False, best=0.0),
    Inputs("dice_global_rle", RLE_TABLE, higher_is_better=True, best=1.0),
    Inputs("dice_hausdorff", RLE_TABLE, higher_is_better=True, best=1.0),
    Inputs("dice_hausdorff_fixed", RLE_TABLE, higher_is_better=True, best=1.0),
    Inputs("dice_rle_sized", RLE_TABLE, higher_is_better=True, best=1.0),
    Inputs("probabilistic_f1", BINARY_SCORE, higher_is_better=True, best=1.0),
    Inputs("roc_auc_weighted_tpr", BINARY_SCORE, higher_is_better=True, best=1.0),
    Inputs("lwlrap", NUMERIC_COLUMNS, higher_is_better=True, best=1.0),
    Inputs(
        "roc_auc_mean_columns", NUMERIC_COLUMNS, higher_is_better=True, best=1.0, scored_rows="labelled_rows"
    ),
    Inputs("spearman_mean_columns", NUMERIC_COLUMNS, higher_is_better=True, best=1.0),
    Inputs("f1_micro_multilabel", TEXT, higher_is_better=True, best=1.0),
    Inputs("f1_micro_multilabel_fixed", TEXT, higher_is_better=True, best=1.0),
    Inputs("jaccard_words", TEXT, higher_is_better=True, best=1.0),
    Inputs("jaccard_words_fixed", TEXT, higher_is_better=True, best=1.0),
    Inputs("levenshtein_mean", TEXT, higher_is_better=False, best=0.0),
    Inputs("map_at_k", TEXT, higher_is_better=True, best=1.0),
    Inputs("kendall_tau_cell_order", PERMUTATION, higher_is_better=True, best=1.0),
    # v1 loses the first box (id 0), so its perfect score is a little below 1
    Inputs(
        "coco_map", BOXES, layout=Layout(size=6, label_at=0, blank_ok=False), higher_is_better=True, best=1.0
    ),  # class score x1 y1 x2 y2
    Inputs(
        "coco_map_fixed",
        BOXES,
        layout=Layout(size=6, label_at=0, blank_ok=False),
        higher_is_better=True,
        best=1.0,
    ),
    Inputs(  # conf cx cy cz w l h yaw class
        "map_3d",
        BOXES,
        layout=Layout(size=9, label_at=8, blank_ok=True, positive=(4, 5, 6)),
        higher_is_better=True,
        best=1.0,
    ),
    Inputs(
        "voc_map", BOXES, layout=Layout(size=6, label_at=0, blank_ok=False), higher_is_better=True, best=1.0
    ),  # label conf x1 y1 x2 y2
    Inputs("kuzushiji_f1", POINTS, higher_is_better=True, best=1.0),
    Inputs("normalized_levenshtein", INTEGER_SEQUENCE, higher_is_better=False, best=0.0),
    Inputs("top1_error", INTEGER_SEQUENCE, higher_is_better=False, best=0.0),
    Inputs("f1_macro", INTEGER_LABELS, higher_is_better=True, best=1.0),
    Inputs("change_point_f1", POSITIONS, higher_is_better=True, best=1.0),
    Inputs("ab_test_score", INTERVAL_DECISIONS, higher_is_better=True, best=1.0),
)

INPUTS: dict[str, Inputs] = {entry.name: entry for entry in _ENTRIES}
"""Every metric's entry, by registry name."""


def get_inputs(name: str) -> Inputs:
    """Look a metric's entry up by name.

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
