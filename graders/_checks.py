"""What a kind's cells and rows may hold (private; the kinds are in :mod:`graders.kinds`).

A *cell rule* ``rule(column, texts, context) -> (reasons, values)`` checks one submitted answer column and
returns its values as the kind's shape takes them; ``texts`` is the column's Series for numeric kinds and
what the shape's ``column`` gives otherwise (a 1-D object array; the text kind's string array). A *row
rule* ``rule(values, y_true, order, context) -> reasons`` checks across the checked columns or against the
answers; ``order`` is the submission row of each answer row (an array, or a ``range`` when the rows are in
the answers' order), or None when the ids did not match.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any, Protocol

import numpy as np
import pandas as pd

from mlebench_spec.declarations import Submission

from ._cells import Where, is_integer, objects, quoted, report
from ._cells import numbers as parse_numbers
from ._text import SHOWN, count, some
from .boxes import Layout, box_problems
from .rle import parse_rles


class Bounds(Protocol):
    """What the rules read of a metric's validation entry (:class:`graders.inputs.Inputs` is one)."""

    @property
    def name(self) -> str:
        """The metric's name, as messages say it."""

    @property
    def min_value(self) -> float | None:
        """The smallest value a cell may hold, or None."""

    @property
    def whole_numbers(self) -> bool:
        """Cells must be whole numbers (class labels)."""

    @property
    def row_sum_tolerance(self) -> float:
        """How far class probabilities may sum from 1."""

    @property
    def layout(self) -> Layout | None:
        """How box tuples are laid out, for the kinds that take boxes."""


@dataclass(frozen=True)
class Context:
    """What a kind's checks read besides the cells.

    Attributes
    ----------
    inputs
        The metric's validation entry (bounds, row-sum tolerance, box layout).
    spec
        The competition's ``submission:`` block.
    metric_args
        The competition's metric arguments (``height`` and ``width`` bound RLE masks).
    where
        Names a submission row in messages (by id when there is an id column).

    """

    inputs: Bounds
    spec: Submission
    metric_args: Mapping[str, Any]
    where: Where


CellRule = Callable[[str, Any, Context], tuple[list[str], np.ndarray]]
RowRule = Callable[[dict[str, np.ndarray], Any, "np.ndarray | None", Context], list[str]]

_POINTS = Layout(size=3, label_at=0, blank_ok=True)  # kind "points": label x y


def labels(column: str, texts: np.ndarray, context: Context) -> tuple[list[str], np.ndarray]:
    """Labels must not be blank, unless ``submission.blank_labels`` lets them match nothing."""
    if context.spec.blank_labels:
        return [], texts
    # ``str.strip`` removes exactly the characters ``str.isspace`` accepts; no stripped copy per cell
    blank = (isinstance(t, str) and (not t or t.isspace()) for t in texts)
    empty = np.fromiter(blank, dtype=bool, count=len(texts))
    return report(column, "empty value", empty, context.where), texts


def anything(column: str, texts: np.ndarray, context: Context) -> tuple[list[str], np.ndarray]:
    """Any text goes (a row rule may check it against the answers)."""
    return [], texts


def integer_sequences(column: str, texts: np.ndarray, context: Context) -> tuple[list[str], np.ndarray]:
    """Whitespace-separated integers, at least one per cell (v1, multi-modal-gesture)."""
    tokens = pd.Series(texts, dtype=object).str.split()
    wrong = ~tokens.map(lambda ts: bool(ts) and all(is_integer(t) for t in ts)).to_numpy(dtype=bool)
    verb = " not a whitespace-separated list of integers"
    return report(column, "value", wrong, context.where, quoted(texts), verb=verb), texts


def _tuples(
    column: str, texts: np.ndarray, layout: Layout, noun: str, where: Where
) -> tuple[list[str], np.ndarray]:
    found = box_problems(texts, layout)
    flagged = np.zeros(len(texts), dtype=bool)
    flagged[list(found)] = True
    return report(column, noun, flagged, where, lambda r: f"{texts[r]!r} ({found[r]})"), texts


def points(column: str, texts: np.ndarray, context: Context) -> tuple[list[str], np.ndarray]:
    """``label x y`` triples, blank for none."""
    return _tuples(column, texts, _POINTS, "malformed point list", context.where)


def boxes(column: str, texts: np.ndarray, context: Context) -> tuple[list[str], np.ndarray]:
    """Box tuples laid out as the metric's validation entry says."""
    return _tuples(column, texts, context.inputs.layout, "malformed prediction string", context.where)


def _rles(
    column: str, texts: np.ndarray, where: Where, shape: dict[str, int]
) -> tuple[list[str], np.ndarray]:
    problems = parse_rles(texts, **shape).problems
    bad = np.zeros(len(texts), dtype=bool)
    bad[list(problems)] = True
    return report(column, "malformed RLE value", bad, where, lambda r: f"{texts[r]!r} ({problems[r]})"), texts


def rle_masks(column: str, texts: np.ndarray, context: Context) -> tuple[list[str], np.ndarray]:
    """RLE masks, bounded by the metric arguments ``height`` and ``width`` when given."""
    shape = {k: context.metric_args[k] for k in ("height", "width") if k in context.metric_args}
    return _rles(column, texts, context.where, shape)


def rle_forms(column: str, texts: np.ndarray, context: Context) -> tuple[list[str], np.ndarray]:
    """RLE masks whose sizes vary by row, so only the form is checked; ``-`` is an empty mask too."""
    return _rles(column, np.where(texts == "-", "", texts).astype(object), context.where, {})


def _numeric(
    column: str, texts: np.ndarray | pd.Series, context: Context, *, unit_interval: bool
) -> tuple[list[str], np.ndarray]:
    nan = None
    if column in context.spec.nan_columns:  # v1 mode: a missing number reaches the metric (nan_columns)
        nan = objects(texts) == "nan"
        texts = np.where(nan, "0", objects(texts)).astype(object) if nan.any() else texts
    values, reasons = parse_numbers(column, texts, context.where)
    if nan is not None and nan.any():
        values = np.where(nan, np.nan, values)
    finite = np.isfinite(values)
    shown, where, inputs = quoted(texts), context.where, context.inputs
    if unit_interval:
        outside = finite & ((values < 0) | (values > 1))
        reasons += report(column, "value", outside, where, shown, verb=" outside [0, 1] (a probability)")
    if inputs.whole_numbers:
        fractional = finite & (values != np.round(values))
        verb = f" not a whole number (a class label), which {inputs.name} needs"
        reasons += report(column, "value", fractional, where, shown, verb=verb)
    if inputs.min_value is not None:
        low = finite & (values < inputs.min_value)
        verb = f" below {inputs.min_value:g}, which {inputs.name} does not accept"
        reasons += report(column, "value", low, where, shown, verb=verb)
    return reasons, values


numbers: CellRule = partial(_numeric, unit_interval=False)
"""Finite numbers, within the metric's bounds (``min_value``, ``whole_numbers``)."""
probabilities: CellRule = partial(_numeric, unit_interval=True)
"""Finite numbers in [0, 1], within the metric's bounds."""


def class_sums(
    values: dict[str, np.ndarray], y_true: Any, order: np.ndarray | None, context: Context
) -> list[str]:
    """Each row's class probabilities sum to 1, within the declaration's or the metric's tolerance."""
    if list(values) != context.spec.target_columns:
        return []  # a class column is missing, which is reported already
    sums = np.column_stack(list(values.values())).sum(axis=1)
    tolerance = context.spec.row_sum_tolerance or context.inputs.row_sum_tolerance
    off = np.isfinite(sums) & ~np.isclose(sums, 1.0, rtol=0.0, atol=tolerance)
    n = int(off.sum())
    if not n:
        return []
    shown = [f"{context.where(r)} sums to {sums[r]:.10g}" for r in np.flatnonzero(off)[:SHOWN]]
    return [
        f"class probabilities must sum to 1 (within {tolerance:g}) in every row: "
        f"{count(n, 'row')} {'does' if n == 1 else 'do'} not: {some(shown, n)}"
    ]


def reorderings(
    values: dict[str, np.ndarray], y_true: Any, order: np.ndarray | None, context: Context
) -> list[str]:
    """Each submitted row (by submission position) holds exactly its answer row's tokens, in any order."""
    if not values or order is None:
        return []
    column, texts = next(iter(values.items()))
    bad = np.zeros(len(texts), dtype=bool)
    detail = {}
    for answer_row, row in enumerate(order):
        expected, got = str(y_true[answer_row]).split(), str(texts[row]).split()
        if sorted(expected) != sorted(got):
            bad[row] = True
            missing, extra = set(expected) - set(got), set(got) - set(expected)
            detail[row] = (
                f"{len(got)} tokens for {len(expected)} expected"
                + (f", missing {sorted(missing)[:3]}" if missing else "")
                + (f", unknown {sorted(extra)[:3]}" if extra else "")
                + (", repeated tokens" if not missing and not extra and len(got) != len(set(got)) else "")
            )
    verb = " not a reordering of the expected tokens"
    return report(column, "value", bad, context.where, lambda r: detail[r], verb=verb)


def positions(column: str, texts: np.ndarray, context: Context) -> tuple[list[str], np.ndarray]:
    """Blank (none), or whitespace-separated whole numbers >= 0 (detected positions in a stream)."""
    tokens = pd.Series(objects(texts), dtype=object).fillna("").astype(str).str.split()
    wrong = ~tokens.map(lambda ts: all(t.isdigit() for t in ts)).to_numpy(dtype=bool)
    verb = " not blank or a whitespace-separated list of whole numbers >= 0 (positions)"
    return report(column, "value", wrong, context.where, quoted(texts), verb=verb), texts


DECISIONS = (-1.0, 0.0, 1.0)


def interval_decisions(
    values: dict[str, np.ndarray], y_true: Any, order: np.ndarray | None, context: Context
) -> list[str]:
    """``lower <= upper`` in every row, and ``decision`` is -1 (invalid), 0 (do not ship) or 1 (ship)."""
    reasons = []
    if "lower" in values and "upper" in values:
        lower, upper = values["lower"], values["upper"]
        crossed = np.isfinite(lower) & np.isfinite(upper) & (lower > upper)
        detail = lambda r: f"lower {lower[r]:.10g} > upper {upper[r]:.10g}"  # noqa: E731
        reasons += report("lower", "row", crossed, context.where, detail, verb=" above its upper bound")
    if "decision" in values:
        decision = values["decision"]
        other = np.isfinite(decision) & ~np.isin(decision, DECISIONS)
        detail = lambda r: f"{decision[r]:.10g}"  # noqa: E731
        verb = " not -1 (invalid experiment), 0 (do not ship) or 1 (ship)"
        reasons += report("decision", "value", other, context.where, detail, verb=verb)
    return reasons
