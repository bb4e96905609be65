r"""Regular expressions for the integrity checks, in a linear-time engine, over lines of bounded length.

Python's ``re`` backtracks: a pattern such as ``cat[^|]*>>?\\s*\\S*submission\\.csv`` takes time
polynomial in a line crafted against it (``"cat " + ">>" * n``: 10 KB in 16 s, 20 KB in 53 s), and an agent
writes the logs the checks read. Every integrity pattern is therefore compiled by :func:`compile_pattern`
with RE2 (``google-re2``), whose matching time is linear in the input for any pattern; RE2 has no
look-around and no back-references, so a pattern that uses them is refused with the reason.
:func:`search` also bounds the line: a line longer than :data:`MAX_LINE_CHARS` is searched in windows of
that size overlapping by :data:`OVERLAP_CHARS`, so a match up to that long is found wherever it sits.
The integrity stage's wall-clock budget (:class:`Budget`) bounds the whole stage on top.
"""

from __future__ import annotations

import time
from typing import Any

import re2

MAX_LINE_CHARS = 64 * 1024
"""Characters of one line searched at a time."""
OVERLAP_CHARS = 4096
"""How far consecutive windows of a long line overlap: the longest match found across a window edge."""


class PatternError(ValueError):
    """A pattern the linear-time engine cannot compile (look-around, back-references, bad syntax)."""


def compile_pattern(pattern: str, ignore_case: bool = True) -> Any:
    r"""Compile ``pattern`` with RE2 (case-insensitive unless told); raise :class:`PatternError` naming it.

    >>> compile_pattern(r"submission\.csv").search("SUBMISSION.csv") is not None
    True
    >>> compile_pattern(r"(?<!x)y")
    Traceback (most recent call last):
    ...
    mlebench.integrity.patterns.PatternError: ...
    """
    options = re2.Options()
    options.log_errors = False  # a refused pattern is reported by our error, not logged by RE2 on stderr
    options.case_sensitive = not ignore_case
    try:
        return re2.compile(pattern, options)
    except re2.error as exc:
        raw = exc.args[0] if exc.args else exc
        detail = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
        raise PatternError(
            f"{pattern!r} is not a pattern the linear-time engine (RE2) accepts ({detail}): write it without "
            "look-around ((?=…), (?!…), (?<=…), (?<!…)) or back-references"
        ) from None


def check_pattern(pattern: str) -> str:
    """Return ``pattern`` when RE2 compiles it, else raise :class:`PatternError` (for declaration schemas)."""
    compile_pattern(pattern)
    return pattern


def search(pattern: Any, line: str) -> bool:
    """Tell whether ``pattern`` matches in ``line``, searching a long line window by window.

    >>> p = compile_pattern("needle")
    >>> search(p, "x" * 100_000 + "needle" + "y" * 100_000), search(p, "x" * 100_000)
    (True, False)
    """
    if len(line) <= MAX_LINE_CHARS:
        return pattern.search(line) is not None
    step = MAX_LINE_CHARS - OVERLAP_CHARS
    # Each window is sliced out (RE2's wrapper encodes the whole string it is given, on every call); a
    # window after the first starts with NUL, so ``^`` matches only at the line's real start.
    return pattern.search(line[:MAX_LINE_CHARS]) is not None or any(
        pattern.search("\0" + line[start : start + MAX_LINE_CHARS]) is not None
        for start in range(step, len(line) - OVERLAP_CHARS, step)
    )


class BudgetExceeded(Exception):
    """The integrity stage ran out of its wall-clock budget."""


class Budget:
    """A wall-clock budget the checks consult between lines (``None`` seconds: no limit)."""

    def __init__(self, seconds: float | None, clock: Any = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self._deadline = None if seconds is None else clock() + seconds

    def check(self) -> None:
        """Raise :class:`BudgetExceeded` once the budget is spent."""
        if self._deadline is not None and self._clock() > self._deadline:
            raise BudgetExceeded(f"the integrity checks ran past their budget of {self.seconds} s")
