"""Run-length encoded binary masks, in MLE-bench's convention.

An RLE string is ``"start length start length ..."``: whitespace-separated positive integers in pairs.
Pixels are numbered from 1 in **column-major** order (down the first column, then the next), so pixel
``k`` (1-based) of an ``height x width`` mask is row ``(k - 1) % height``, column ``(k - 1) // height``.
An empty (or whitespace-only) string, ``None`` or NaN is the empty mask. Runs must have starts in
ascending order and must not overlap (touching runs are fine), and must lie inside the image.

:func:`parse_rles` parses many strings at once with numpy and reports the first problem of each
malformed string instead of raising, so validation can list them; :func:`rle_decode` and
:func:`rle_encode` convert one mask.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

_MAX_DIGITS = 18  # keeps start + length inside int64
_SPACE = " \t\n\r\f\v"  # ASCII whitespace only: what numpy's parser skips; other spaces are errors
_TOO_LONG = f"[0-9]{{{_MAX_DIGITS + 1}}}"


@dataclass(frozen=True)
class Runs:
    """Runs parsed from ``count`` RLE strings; run ``k`` belongs to string ``owner[k]``.

    ``starts`` are **0-based** pixel offsets in column-major order. Strings listed in ``problems``
    (position -> first problem found) contribute no runs.
    """

    count: int
    owner: np.ndarray
    starts: np.ndarray
    lengths: np.ndarray
    problems: dict[int, str] = field(default_factory=dict)

    def pixel_sums(self) -> np.ndarray:
        """Count the foreground pixels of each string's mask."""
        return np.bincount(self.owner, weights=self.lengths, minlength=self.count)

    def clipped(self, sizes: np.ndarray) -> Runs:
        """Return these runs cut at the last pixel of each string's image (``sizes[owner]`` pixels).

        A run starting past that pixel is dropped, as MLE-bench v1's decoders do: they paint runs into a
        flat pixel array with slices, which silently stop at its end.
        """
        ends = np.minimum(self.starts + self.lengths, sizes[self.owner])
        kept = ends > self.starts
        lengths = (ends - self.starts)[kept].astype(self.lengths.dtype)
        return Runs(self.count, self.owner[kept], self.starts[kept], lengths, dict(self.problems))


def parse_rles(
    rles: Sequence[object] | np.ndarray | pd.Series, *, height: int | None = None, width: int | None = None
) -> Runs:
    """Parse many RLE strings at once, collecting the first problem of each malformed one.

    Parameters
    ----------
    rles
        RLE strings; ``None``, NaN and blank strings are empty masks.
    height, width
        Mask size. When given, runs reaching past the last pixel are problems; when both are omitted
        only the structure of each string is checked.

    Returns
    -------
    Runs
        The runs of every well-formed string, and a reason for every malformed one.

    Examples
    --------
    >>> runs = parse_rles(["1 2 5 1", "", "3 1 2 1", "4"], height=3, width=2)
    >>> runs.pixel_sums().tolist()
    [3.0, 0.0, 0.0, 0.0]
    >>> runs.problems[2], runs.problems[3]
    ('run starts are not ascending: 3 then 2', 'odd number of values (1); expected start/length pairs')

    """
    n_pixels = _pixel_count(height, width)
    values = pd.Series(np.asarray(rles, dtype=object).ravel(), dtype=object)
    values = values.where(values.notna(), "").astype(str)
    count = len(values)
    # Fast path for strings of digits and whitespace only (every well-formed one): count the numbers and
    # parse them all in one numpy call. Anything else gets a precise reason from _token_problem.
    plain = values.str.fullmatch(f"[0-9{_SPACE}]*").eq(True) & ~values.str.contains(_TOO_LONG).eq(True)
    problems = {int(row): _token_problem(values.iloc[row]) for row in np.flatnonzero(~plain.to_numpy())}
    counts = np.zeros(count, dtype=np.intp)
    counts[plain.to_numpy()] = values[plain].str.count(r"[0-9]+").to_numpy(dtype=np.intp)
    for row in np.flatnonzero(counts % 2 == 1):
        problems[int(row)] = f"odd number of values ({counts[row]}); expected start/length pairs"
    counts[counts % 2 == 1] = 0

    numbers = _parse_plain(values[counts > 0].tolist(), int(counts.sum()))
    owner = np.repeat(np.arange(count), counts // 2)
    starts, lengths = numbers[0::2], numbers[1::2]
    problems.update(_run_problems(owner, starts, lengths, n_pixels, height, width))

    good = ~np.isin(owner, np.fromiter(problems, dtype=np.intp, count=len(problems)))
    return Runs(count, owner[good], starts[good] - 1, lengths[good], dict(sorted(problems.items())))


def _token_problem(value: object) -> str:
    """Name the first token of a string that is not a whole number of at most 18 digits."""
    for token in re.split(f"[{_SPACE}]+", str(value).strip(_SPACE)):
        if not (token.isascii() and token.isdigit()):
            return f"{token!r} is not a whole number"
        if len(token) > _MAX_DIGITS:
            return f"{token!r} is too large"
    raise AssertionError(f"no bad token in {value!r}")  # the caller only passes strings that have one


def _parse_plain(strings: list[str], expected: int) -> np.ndarray:
    """Parse whitespace-separated ASCII digits (at most 18 per number) from many strings, in order."""
    joined = " ".join(s.strip(_SPACE) for s in strings)
    numbers = np.fromstring(joined, dtype=np.int64, sep=" ") if joined else np.zeros(0, dtype=np.int64)
    if len(numbers) != expected:  # fromstring stops quietly at anything unexpected; never trust it blindly
        raise AssertionError(f"parsed {len(numbers)} numbers where {expected} were counted")
    return numbers


def _pixel_count(height: int | None, width: int | None) -> int | None:
    if height is None and width is None:
        return None
    for name, value in (("height", height), ("width", width)):
        if isinstance(value, bool) or not isinstance(value, int | np.integer) or value < 1:
            raise ValueError(f"RLE mask {name} must be a positive integer, got {value!r}")
    return int(height) * int(width)  # type: ignore[arg-type]


def _run_problems(
    owner: np.ndarray,
    starts: np.ndarray,
    lengths: np.ndarray,
    n_pixels: int | None,
    height: int | None,
    width: int | None,
) -> dict[int, str]:
    """First problem of each string whose runs are out of order, overlapping, empty or out of bounds."""
    ends = starts + lengths - 1  # last pixel of each run, 1-based
    follows = np.r_[False, owner[1:] == owner[:-1]]  # run k and run k-1 belong to the same string
    prev_start, prev_length = np.r_[0, starts[:-1]], np.r_[0, lengths[:-1]]
    checks = [
        (starts < 1, lambda k: f"run start {starts[k]} is not >= 1 (starts are 1-based)"),
        (lengths < 1, lambda k: f"run length {lengths[k]} at start {starts[k]} is not >= 1"),
        (
            ends > n_pixels if n_pixels is not None else np.zeros(len(ends), dtype=bool),
            lambda k: (
                f"run {starts[k]} {lengths[k]} ends at pixel {ends[k]}, past the last pixel "
                f"{n_pixels} of a {height}x{width} mask"
            ),
        ),
        (
            follows & (starts <= prev_start),
            lambda k: f"run starts are not ascending: {prev_start[k]} then {starts[k]}",
        ),
        (
            follows & (starts < prev_start + prev_length),
            lambda k: f"runs overlap: {prev_start[k]} {prev_length[k]} and {starts[k]} {lengths[k]}",
        ),
    ]
    failed = np.zeros(len(owner), dtype=bool)
    for mask, _ in checks:
        failed |= mask
    rows, first = np.unique(owner[failed], return_index=True)
    problems = {}
    for row, k in zip(rows, np.flatnonzero(failed)[first], strict=True):
        describe = next(describe for mask, describe in checks if mask[k])
        problems[int(row)] = describe(k)
    return problems


def rle_decode(rle: object, height: int, width: int) -> np.ndarray:
    """Decode one RLE string into a boolean ``(height, width)`` mask.

    Raises
    ------
    ValueError
        If the string is malformed: an odd count, a token that is not a whole number, starts not
        ascending, overlapping runs, a zero start or length, or a run past the last pixel.

    Examples
    --------
    >>> rle_decode("1 2 5 1", height=3, width=2).astype(int)
    array([[1, 0],
           [1, 1],
           [0, 0]])
    >>> rle_decode("", height=2, width=2).any()
    np.False_

    """
    runs = parse_rles([rle], height=height, width=width)
    if runs.problems:
        raise ValueError(f"malformed RLE {rle!r}: {runs.problems[0]}")
    flat = runs_to_flat_masks(runs, height * width)[0]
    return flat.reshape(width, height).T


def runs_to_flat_masks(runs: Runs, n_pixels: int) -> np.ndarray:
    """Paint parsed runs into a ``(runs.count, n_pixels)`` boolean array, one column-major row per mask."""
    offsets = runs.owner.astype(np.int64) * (n_pixels + 1)
    total = runs.count * (n_pixels + 1) + 1
    edges = np.bincount(offsets + runs.starts, minlength=total) - np.bincount(
        offsets + runs.starts + runs.lengths, minlength=total
    )
    painted = np.cumsum(edges[:-1]) > 0
    return painted.reshape(runs.count, n_pixels + 1)[:, :n_pixels]


def rle_encode(mask: np.ndarray) -> str:
    """Encode a 2-D mask (nonzero = foreground) as an RLE string; the empty mask is ``""``.

    Examples
    --------
    >>> rle_encode(np.array([[1, 0], [1, 1], [0, 0]]))
    '1 2 5 1'
    >>> rle_encode(np.zeros((2, 2)))
    ''

    """
    mask = np.asarray(mask)
    if mask.ndim != 2:
        raise ValueError(f"rle_encode needs a 2-D mask, got shape {mask.shape}")
    flat = mask.astype(bool).ravel(order="F")
    edges = np.flatnonzero(np.diff(np.r_[False, flat, False].astype(np.int8)))
    starts, stops = edges[0::2], edges[1::2]
    pairs = np.column_stack([starts + 1, stops - starts]).ravel()
    return " ".join(pairs.astype(str).tolist())
