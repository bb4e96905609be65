"""Submission kinds: how a metric's answers and predictions look, one small object per kind.

Every metric's validation entry (:class:`graders.inputs.Inputs`) names its kind, and
:func:`graders.submission.validate` asks that object instead of branching on a name:

- :meth:`Kind.check_targets` and :meth:`Kind.truth`: the answer columns and ``y_true``;
- :meth:`Kind.cells`: the problems with one submitted answer column, and its values;
- :meth:`Kind.rows`: problems that need every column or the answers (class rows summing to 1, ...);
- :meth:`Kind.predictions`: the checked columns in the answers' row order, ``y_pred``.

A kind pairs a *shape* (:mod:`graders._shapes`: how ``y_true`` and ``y_pred`` are built) with a *cell
rule* and an optional *row rule* (:mod:`graders._checks`: what a column or a row may hold). Each kind's
``doc`` says what the metric receives. To add a kind, add one object here and list it in :data:`KINDS`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np
import pandas as pd

from mlebench_spec.declarations import Submission

from . import _checks as checks
from . import _shapes as shapes
from ._checks import Context

Prediction = Literal["label", "probability", "class-probabilities", "value"]


@dataclass(frozen=True, eq=False)
class Kind:
    """One kind of answers and predictions, and how a submission of it is checked and aligned.

    Attributes
    ----------
    name
        The kind's name, as messages and docs call it.
    doc
        What the answers and a submission hold, and what the metric receives.
    shape
        How ``y_true`` and ``y_pred`` are built (:mod:`graders._shapes`).
    cell_rule
        ``cell_rule(column, texts, context) -> (reasons, values)`` for one submitted answer column.
    row_rule
        ``row_rule(values, y_true, order, context) -> reasons``: checks across columns or against the
        answers, or None.
    columns
        How many answer columns the kind takes: ``"one"``, ``"classes"`` (two or more, one per class) or
        ``"any"``.
    numeric
        The cells are numbers (a submitted column is parsed straight from its Arrow buffer).
    prediction
        What a plain model predicts per row, for the kinds that are one value per row: a class
        ``"label"``, the ``"probability"`` (or score) of the positive class, ``"class-probabilities"``
        (a distribution over the answer columns) or a ``"value"``; None for structured predictions.
    needs_layout
        Cells are box tuples laid out per metric: the validation entry must give a ``layout``.

    """

    name: str
    doc: str = field(repr=False)
    shape: shapes.Shape = field(repr=False)
    cell_rule: checks.CellRule = field(repr=False)
    row_rule: checks.RowRule | None = field(default=None, repr=False)
    columns: Literal["one", "classes", "any"] = "one"
    numeric: bool = False
    prediction: Prediction | None = None
    needs_layout: bool = False

    def __repr__(self) -> str:
        return f"Kind({self.name!r})"

    def __reduce__(self) -> str:
        """Pickle and copy by reference (the module attribute): a kind is one object, compared by identity."""
        return self.name.upper()

    def check_targets(self, targets: list[str], metric: str) -> None:
        """Raise ValueError (our bug: the declaration and the registry disagree) on a wrong column count."""
        if self.columns == "classes" and len(targets) < 2:
            raise ValueError(f"metric {metric!r} needs one answer column per class, got {targets}")
        if self.columns == "one" and len(targets) != 1:
            raise ValueError(f"metric {metric!r} takes exactly one answer column, got {targets}")

    def truth(self, answers: pd.DataFrame, spec: Submission) -> np.ndarray | pd.DataFrame:
        """Return the answers as the metric takes them (``y_true``); a problem is a ValueError (our bug)."""
        return self.shape.truth(answers, spec)

    def cells(
        self, column: str, texts: np.ndarray | pd.Series, context: Context
    ) -> tuple[list[str], np.ndarray]:
        """Problems with one submitted answer column, and its values as the metric takes them."""
        return self.cell_rule(column, texts if self.numeric else self.shape.column(texts), context)

    def rows(
        self, values: dict[str, np.ndarray], y_true: Any, order: np.ndarray | None, context: Context
    ) -> list[str]:
        """Problems across the checked columns ``values`` or against the answers.

        ``order`` holds the submission row of each answer row, or is None when the ids did not match.
        """
        return [] if self.row_rule is None else self.row_rule(values, y_true, order, context)

    def predictions(
        self, values: dict[str, np.ndarray], spec: Submission, order: np.ndarray | None
    ) -> np.ndarray | pd.DataFrame:
        """``y_pred``: the checked columns in the answers' row order (``order`` None: already in it)."""
        return self.shape.predictions(values, spec, order)


LABELS = Kind(
    "labels",
    shape=shapes.STRINGS,
    cell_rule=checks.labels,
    prediction="label",
    doc="One column, compared as exact strings (class labels, or strings such as phoneme sequences).",
)
BINARY_PROBABILITY = Kind(
    "binary_probability",
    shape=shapes.FLOATS,
    cell_rule=checks.probabilities,
    numeric=True,
    prediction="probability",
    doc="One numeric column in [0, 1]; the answers are 0/1.",
)
REGRESSION = Kind(
    "regression",
    shape=shapes.FLOATS,
    cell_rule=checks.numbers,
    numeric=True,
    prediction="value",
    doc="One numeric column.",
)
PROBABILITIES = Kind(
    "probabilities",
    shape=shapes.MATRIX,
    cell_rule=checks.probabilities,
    row_rule=checks.class_sums,
    columns="classes",
    numeric=True,
    prediction="class-probabilities",
    doc="One numeric column per class; each submitted row is a distribution (values in [0, 1], sum 1). "
    "The answers are one-hot. ``y_true`` and ``y_pred`` are 2-D float arrays, one column per class in "
    "``submission.columns`` order.",
)
RLE_MASK = Kind(
    "rle_mask",
    shape=shapes.STRINGS,
    cell_rule=checks.rle_masks,
    doc="One string column: a run-length encoded binary mask (see :mod:`graders.rle`); blank = empty mask.",
)
NUMERIC_TABLE = Kind(
    "numeric_table",
    shape=shapes.TABLE,
    cell_rule=checks.numbers,
    columns="any",
    numeric=True,
    doc="One or more numeric columns, scored together with answer-only columns (groups, masks, sizes). "
    "``y_true`` is the answers frame (every column, strings, answers' row order, index 0..n-1); "
    "``y_pred`` holds the submitted columns as floats in the same row order, indexed by each row's "
    "0-based position in the submission file (so v1's positional quirks can be reproduced).",
)
RLE_TABLE = Kind(
    "rle_table",
    shape=shapes.TABLE,
    cell_rule=checks.rle_forms,
    doc="One RLE string column (``-`` also means an empty mask) whose mask sizes vary by row and come "
    "from answer-only columns. ``y_true`` and ``y_pred`` are frames as for ``numeric_table`` (strings).",
)
BINARY_SCORE = Kind(
    "binary_score",
    shape=shapes.FLOATS,
    cell_rule=checks.numbers,
    numeric=True,
    prediction="probability",
    doc="One numeric column of scores, any finite real number (no [0, 1] check); the answers are 0/1.",
)
NUMERIC_COLUMNS = Kind(
    "numeric_columns",
    shape=shapes.MATRIX,
    cell_rule=checks.numbers,
    columns="any",
    numeric=True,
    doc="One or more numeric columns, any finite values; ``y_true`` and ``y_pred`` are 2-D float arrays "
    "with the columns in ``submission.columns`` order.",
)
TEXT = Kind(
    "text",
    shape=shapes.TEXTS,
    cell_rule=checks.anything,
    doc="One string column taken as is: blank cells are allowed (an empty list, set or string). "
    "``y_true`` and ``y_pred`` are 1-D string arrays, left in Arrow where the files were read by it (a "
    "pandas string array: index it, slice it, or ``np.asarray(..., dtype=object)`` it).",
)
PERMUTATION = Kind(
    "permutation",
    shape=shapes.STRINGS,
    cell_rule=checks.anything,
    row_rule=checks.reorderings,
    doc="One string column of whitespace-separated tokens; each submitted row must hold exactly the "
    "tokens of its answer row, in any order.",
)
BOXES = Kind(
    "boxes",
    shape=shapes.TABLE,
    cell_rule=checks.boxes,
    needs_layout=True,
    doc="One string column of fixed-size tuples (a label and numbers per box), laid out as the metric's "
    "validation entry says (``graders.inputs.Inputs.layout``); frames as for ``rle_table``.",
)
POINTS = Kind(
    "points",
    shape=shapes.TEXTS,
    cell_rule=checks.points,
    doc="One string column of ``label x y`` triples (blank = none; x and y finite numbers); the answers "
    "hold ``label x y w h`` boxes. ``y_true`` and ``y_pred`` are 1-D string arrays, left in Arrow as for "
    "``text`` (a page's points are kilobytes).",
)
INTEGER_SEQUENCE = Kind(
    "integer_sequence",
    shape=shapes.STRINGS,
    cell_rule=checks.integer_sequences,
    doc="One string column of whitespace-separated integers, at least one per cell; 1-D string arrays.",
)
INTEGER_LABELS = Kind(
    "integer_labels",
    shape=shapes.INTEGERS,
    cell_rule=checks.numbers,
    numeric=True,
    prediction="label",
    doc="One numeric column of class ids, compared as integers: ``3``, ``03`` and ``3.0`` are the same "
    "class and a fraction is truncated toward zero, as MLE-bench's ``astype(int)`` does. 1-D int64 "
    "arrays.",
)

POSITIONS = Kind(
    "positions",
    shape=shapes.TEXTS,
    cell_rule=checks.positions,
    doc="One string column of whitespace-separated whole numbers >= 0 (positions in a stream, e.g. detected "
    "change points); blank = none. 1-D string arrays, as for ``text``.",
)
INTERVAL_DECISIONS = Kind(
    "interval_decisions",
    shape=shapes.TABLE,
    cell_rule=checks.numbers,
    row_rule=checks.interval_decisions,
    columns="any",
    numeric=True,
    doc="Numeric columns ``estimate, lower, upper, decision`` per row (an experiment's effect, its "
    "interval with lower <= upper, and -1 invalid / 0 do not ship / 1 ship); frames as for "
    "``numeric_table``.",
)

KINDS: tuple[Kind, ...] = (
    LABELS,
    BINARY_PROBABILITY,
    REGRESSION,
    PROBABILITIES,
    RLE_MASK,
    NUMERIC_TABLE,
    RLE_TABLE,
    BINARY_SCORE,
    NUMERIC_COLUMNS,
    TEXT,
    PERMUTATION,
    BOXES,
    POINTS,
    INTEGER_SEQUENCE,
    INTEGER_LABELS,
    POSITIONS,
    INTERVAL_DECISIONS,
)
"""Every kind; a metric's validation entry must name one of these."""
