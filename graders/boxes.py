"""Parse prediction strings of fixed-size box tuples, many rows at once.

A prediction string is whitespace-separated tokens in tuples of ``size``; the token at ``label_at`` is a
label (any text) and every other token must be a finite number. Used by the detection metrics and by
the kinds ``boxes`` and ``points`` (:mod:`graders.kinds`), so both read strings identically. A detection
metric's layout is part of its validation entry (``graders.inputs.INPUTS[name].layout``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import chain

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ._cells import parse_floats
from ._csv import release_arrow_memory


@dataclass(frozen=True)
class Layout:
    """Tuple size, label position and whether a blank cell (no boxes) is allowed."""

    size: int
    label_at: int
    blank_ok: bool
    positive: tuple[int, ...] = ()  # positions among the numbers that must be > 0


@dataclass(frozen=True)
class Boxes:
    """Tuples parsed from ``count`` strings: tuple ``k`` belongs to row ``owner[k]``."""

    count: int
    owner: np.ndarray
    labels: np.ndarray
    numbers: np.ndarray  # (n_tuples, size - 1) floats, the non-label tokens in order
    problems: dict[int, str] = field(default_factory=dict)


def parse_boxes(strings: np.ndarray | pd.Series, layout: Layout) -> Boxes:
    """Parse many prediction strings; malformed rows are listed in ``problems`` and contribute no boxes.

    Examples
    --------
    >>> b = parse_boxes(np.array(["a 1 0 0 1 1 b 0.5 0 0 2 2", "a 1", "", "a x 0 0 1 1"], dtype=object),
    ...                 Layout(size=6, label_at=0, blank_ok=False))
    >>> b.owner.tolist(), b.labels.tolist()
    ([0, 0], ['a', 'b'])
    >>> b.problems  # doctest: +NORMALIZE_WHITESPACE
    {1: '2 values; expected groups of 6', 2: 'empty value',
     3: "'x' is not a finite number"}

    """
    scan = _Scan(strings, layout)
    good_rows = np.ones(len(scan.counts), dtype=bool)
    good_rows[list(scan.problems)] = False
    keep_tokens = good_rows[scan.row_of]
    owner = np.repeat(np.arange(len(scan.counts)), np.where(good_rows, scan.counts // layout.size, 0))
    labels = _pick(scan.flat, scan.is_label & keep_tokens)
    if isinstance(labels, pa.Array):
        labels = labels.to_numpy(zero_copy_only=False)
    numbers = scan.numbers[keep_tokens[~scan.is_label]].reshape(-1, layout.size - 1)
    boxes = Boxes(len(scan.counts), owner, labels.astype(str), numbers, scan.problems)
    del scan
    release_arrow_memory()  # the freed token arrays (3d-object: 70 MB the allocator would keep)
    return boxes


def box_problems(strings: np.ndarray | pd.Series, layout: Layout, text: int = 1 << 18) -> dict[int, str]:
    """Return the malformed rows of :func:`parse_boxes` without building the boxes (what validation needs).

    Rows are scanned about ``text`` characters at a time, so the tokens of only a few of them are held at
    once (kuzushiji's 2 MB of points: 19 MB above the file at once, 1 MB a quarter MiB at a time, 10% slower).

    >>> box_problems(np.array(["a 1 2", "a 1"], dtype=object), Layout(size=3, label_at=0, blank_ok=True))
    {1: '2 values; expected groups of 3'}
    """
    texts = _texts(strings)
    ends = np.cumsum(texts.str.len().to_numpy(dtype=np.int64, na_value=0))
    cuts = np.unique(np.searchsorted(ends, np.arange(text, ends[-1] if len(ends) else 0, text), "right"))
    cuts = cuts[cuts > 0]
    problems = {}
    for start, stop in zip([0, *cuts], [*cuts, len(texts)], strict=True):
        scanned = _Scan(texts.iloc[start:stop], layout).problems
        problems.update((start + row, problem) for row, problem in scanned.items())
        release_arrow_memory()
    return problems


class _Scan:
    """Every cell's tokens, which are labels, the numbers parsed, and the problems of malformed rows."""

    def __init__(self, strings: np.ndarray | pd.Series, layout: Layout) -> None:
        self.counts, self.flat = _tokens(_texts(strings))
        counts, size = self.counts, layout.size
        problems: dict[int, str] = {}
        for row in np.flatnonzero(counts % size != 0):
            problems[int(row)] = f"{counts[row]} values; expected groups of {size}"
        if not layout.blank_ok:
            for row in np.flatnonzero(counts == 0):
                problems[int(row)] = "empty value"
        self.row_of = np.repeat(np.arange(len(counts)), counts)
        position = np.arange(len(self.row_of)) - np.repeat(np.cumsum(counts) - counts, counts)
        self.is_label = position % size == layout.label_at
        number_tokens = _pick(self.flat, ~self.is_label)
        self.numbers = numbers = parse_floats(number_tokens)  # pandas' to_numeric, by Arrow where it can

        def token(k: int) -> str:
            return number_tokens[k].as_py() if isinstance(number_tokens, pa.Array) else number_tokens[k]

        bad = ~np.isfinite(numbers)
        number_row = self.row_of[~self.is_label]
        for k in np.flatnonzero(bad):
            problems.setdefault(int(number_row[k]), f"{token(k)!r} is not a finite number")
        if layout.positive:
            slot = position % size  # each number's place in its own row's group, after the label
            at = (slot - (slot > layout.label_at))[~self.is_label]
            for k in np.flatnonzero(np.isin(at, layout.positive) & ~bad & (numbers <= 0)):
                problems.setdefault(int(number_row[k]), f"box size {token(k)!r} is not > 0")
        self.problems = dict(sorted(problems.items()))


def _texts(strings: np.ndarray | pd.Series) -> pd.Series:
    """Return the cells as strings, a missing one blank; Arrow-backed strings are kept as they are."""
    if isinstance(strings.dtype, pd.StringDtype):  # a Series or array of Arrow-backed strings
        strings = pd.Series(strings, copy=False)
        return strings.fillna("") if strings.hasnans else strings
    values = pd.Series(strings, dtype=object)
    return values.where(values.notna(), "").astype(str)


# Python's str.split() also splits at these four ASCII controls; Arrow's ASCII whitespace does not
_PYTHON_ONLY_SPACE = "[\x1c-\x1f]"


def _tokens(values: pd.Series) -> tuple[np.ndarray, pa.Array | np.ndarray]:
    """Split every cell as ``str.split()`` does: tokens per row, and all tokens flattened in row order.

    ASCII text is split by Arrow, its tokens left in one Arrow array: a Python ``str`` per token (3d-object's
    1.5M) cost 10 times the tokens' own bytes. Other text is split by Python, whose Unicode whitespace
    Arrow's ASCII kernels do not know.
    """
    text = pa.array(values, type=pa.large_string())
    if isinstance(text, pa.ChunkedArray):  # Arrow-backed cells read from a file in blocks
        text = text.combine_chunks()
    ascii_only = pc.all(pc.string_is_ascii(text)).as_py() is not False
    if ascii_only and not pc.any(pc.match_substring_regex(text, _PYTHON_ONLY_SPACE)).as_py():
        trimmed = pc.ascii_trim_whitespace(text)
        blank = pc.equal(trimmed, "")
        pieces = pc.ascii_split_whitespace(pc.if_else(blank, pa.scalar(None, pa.large_string()), trimmed))
        counts = pc.fill_null(pc.list_value_length(pieces), 0).to_numpy().astype(np.intp)
        return counts, pc.list_flatten(pieces)
    return _python_tokens(values)


def _python_tokens(values: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """:func:`_tokens` by Python's ``str.split()``, the tokens as a 1-D object array."""
    tokens = values.str.split().to_numpy(dtype=object)  # one list of str per row
    counts = np.fromiter(map(len, tokens), dtype=np.intp, count=len(tokens))
    # the lists' own str objects, flattened in row order (pandas' explode made Arrow strings and back)
    return counts, np.fromiter(chain.from_iterable(tokens), dtype=object, count=int(counts.sum()))


def _pick(flat: pa.Array | np.ndarray, mask: np.ndarray) -> pa.Array | np.ndarray:
    """Return the tokens where ``mask`` holds, in order."""
    return pc.filter(flat, pa.array(mask)) if isinstance(flat, pa.Array) else flat[mask]


def parse_boxes_or_raise(strings: np.ndarray, layout: Layout, name: str) -> Boxes:
    """Parse with ``layout``; a malformed row is a ValueError naming ``name`` and the row.

    Metrics call this on validated input, so a problem here means validation and the metric disagree.
    """
    boxes = parse_boxes(strings, layout)
    if boxes.problems:
        row, problem = next(iter(boxes.problems.items()))
        raise ValueError(f"{name} row {row}: malformed prediction string {strings[row]!r}: {problem}")
    return boxes
