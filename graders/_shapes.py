"""How a kind's ``y_true`` and ``y_pred`` are built (private; the kinds are in :mod:`graders.kinds`).

Six shapes: 1-D strings (as objects, or left in Arrow), 1-D floats, 1-D integers, a 2-D float matrix (one
column per answer column) and a table (frames). ``column`` gives a submitted text column as the kind's cell
rule takes it; ``truth`` turns the answers into ``y_true``; ``predictions`` puts the checked submitted
columns into the answers' row order as ``y_pred``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

import numpy as np
import pandas as pd
import pyarrow as pa

from mlebench_spec.declarations import Submission

from ._cells import Where, numbers, objects, strings
from ._csv import release_arrow_memory


class Shape(Protocol):
    """What a kind's shape provides."""

    def column(self, texts: np.ndarray | pd.Series) -> np.ndarray | pd.api.extensions.ExtensionArray:
        """Return a submitted text column as the cell rule takes it (numeric kinds take the Series)."""

    def truth(self, answers: pd.DataFrame, spec: Submission) -> np.ndarray | pd.DataFrame:
        """``y_true`` from the answers (all cells strings); a problem here is a ValueError (our bug)."""

    def predictions(
        self, values: dict[str, np.ndarray], spec: Submission, order: np.ndarray | None
    ) -> np.ndarray | pd.DataFrame:
        """``y_pred``: answer row ``i`` is submission row ``order[i]`` (None: the same row)."""


def _answer_numbers(answers: pd.DataFrame, spec: Submission) -> list[np.ndarray]:
    """Each answer column parsed as floats; a cell that is not a finite number is a ValueError."""
    where = Where(answers[spec.id_column], prefix="answers ")
    columns = []
    for column in spec.target_columns:
        parsed, problems = numbers(column, answers[column], where)
        if problems:
            raise ValueError("; ".join(problems))
        columns.append(parsed)
    return columns


@dataclass(frozen=True)
class _Strings:
    """1-D object arrays: the one answer column's strings."""

    column = staticmethod(objects)

    def truth(self, answers: pd.DataFrame, spec: Submission) -> np.ndarray:
        return answers[spec.target_columns[0]].to_numpy(dtype=object)

    def predictions(
        self, values: dict[str, np.ndarray], spec: Submission, order: np.ndarray | None
    ) -> np.ndarray:
        column = values[spec.target_columns[0]]
        return column if order is None else column[order]


@dataclass(frozen=True)
class _Texts(_Strings):
    """1-D string arrays left in the answers' and the submission's Arrow buffers (or object arrays).

    The metric converts the rows it reads, a slice at a time if it likes: a Python ``str`` for every cell of
    both columns at once, beside the Arrow columns, puts a grader of many texts far above v1's (measured:
    docs/performance.md, "Figures behind design choices").
    """

    column = staticmethod(strings)

    def truth(self, answers: pd.DataFrame, spec: Submission) -> np.ndarray | pd.api.extensions.ExtensionArray:
        return strings(answers[spec.target_columns[0]])

    def predictions(
        self, values: dict[str, np.ndarray], spec: Submission, order: np.ndarray | None
    ) -> np.ndarray | pd.api.extensions.ExtensionArray:
        column = values[spec.target_columns[0]]
        if order is None:
            return column
        if not isinstance(column, pd.arrays.ArrowStringArray):
            return column[order]
        taken = pd.Series(_take(column.__arrow_array__(), order), dtype=column.dtype, copy=False).array
        release_arrow_memory()  # the slices' pieces, before the metric makes strings
        return taken


def _take(column: pa.ChunkedArray, order: np.ndarray, rows: int = 1 << 16) -> pa.ChunkedArray:
    """Return ``column.take(order)`` gathered chunk by chunk, ``rows`` of the result at a time.

    Arrow takes from a string column of many chunks by joining them first: a copy of the whole column beside
    the result (measured: docs/performance.md, "Figures behind design choices"). Here each slice of ``order``
    is grouped by source chunk, taken from each, and put back in order.
    """
    chunks = column.chunks
    starts = np.cumsum([0, *map(len, chunks)])
    pieces = []
    for first in range(0, len(order), rows):
        wanted = np.asarray(order[first : first + rows])
        source = np.searchsorted(starts, wanted, side="right") - 1
        by_source = np.argsort(source, kind="stable")
        groups = np.split(by_source, np.flatnonzero(np.diff(source[by_source])) + 1)
        taken = pa.concat_arrays(
            [chunks[source[g[0]]].take(pa.array(wanted[g] - starts[source[g[0]]])) for g in groups]
        )
        back = np.empty_like(by_source)
        back[by_source] = np.arange(len(by_source))
        pieces.append(taken.take(pa.array(back)))
    return pa.chunked_array(pieces, type=column.type)


@dataclass(frozen=True)
class _Floats(_Strings):
    """1-D float arrays: the one answer column's numbers."""

    def truth(self, answers: pd.DataFrame, spec: Submission) -> np.ndarray:
        return _answer_numbers(answers, spec)[0]


@dataclass(frozen=True)
class _Integers(_Strings):
    """1-D int64 arrays, fractions truncated toward zero (MLE-bench's ``astype(int)``)."""

    def truth(self, answers: pd.DataFrame, spec: Submission) -> np.ndarray:
        return np.trunc(_answer_numbers(answers, spec)[0]).astype(np.int64)

    def predictions(
        self, values: dict[str, np.ndarray], spec: Submission, order: np.ndarray | None
    ) -> np.ndarray:
        return np.trunc(super().predictions(values, spec, order)).astype(np.int64)


@dataclass(frozen=True)
class _Matrix:
    """2-D float arrays, one column per answer column in ``spec.target_columns`` order."""

    column = staticmethod(objects)

    def truth(self, answers: pd.DataFrame, spec: Submission) -> np.ndarray:
        return np.column_stack(_answer_numbers(answers, spec))

    def predictions(
        self, values: dict[str, np.ndarray], spec: Submission, order: np.ndarray | None
    ) -> np.ndarray:
        matrix = np.column_stack([values[c] for c in spec.target_columns])
        return matrix if order is None else matrix[order]


@dataclass(frozen=True)
class _Table:
    """Frames: ``y_true`` is the whole answers frame; ``y_pred`` is indexed by submission file row.

    The metric reads (and checks) the answer columns it needs. ``y_pred`` holds the submitted answer
    columns in the answers' row order, each row indexed by its 0-based position in the submission file.
    """

    column = staticmethod(objects)

    def truth(self, answers: pd.DataFrame, spec: Submission) -> pd.DataFrame:
        return answers.reset_index(drop=True)

    def predictions(
        self, values: dict[str, np.ndarray], spec: Submission, order: np.ndarray | None
    ) -> pd.DataFrame:
        targets = spec.target_columns
        columns = {c: values[c] if order is None else values[c][order] for c in targets}
        index = pd.RangeIndex(len(values[targets[0]])) if order is None else order
        return pd.DataFrame(columns, index=index, copy=False)  # kept apart: stacking copied icecube's 0.2 GB


STRINGS, TEXTS, FLOATS, INTEGERS = _Strings(), _Texts(), _Floats(), _Integers()
MATRIX, TABLE = _Matrix(), _Table()
