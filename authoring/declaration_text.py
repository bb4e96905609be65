"""Edit one top-level block of a ``competition.yaml`` as text, leaving every other line as it was.

A YAML round-trip re-renders the whole file (quotes, wrapping, flow maps), so tools that record facts in
declarations replace only the lines of the block they own: the ``key:`` line and the indented lines after it.
"""

from __future__ import annotations

import re


def set_block(text: str, key: str, block: str, after: str) -> str:
    """Return ``text`` with the top-level ``key`` block replaced by ``block`` (or inserted after ``after``).

    ``block`` is the whole block's text, starting with ``key:``. A new block goes after the top-level
    block ``after``; a missing ``after`` is an error naming it.
    """
    if not block.startswith(f"{key}:"):
        raise ValueError(f"the new block must start with {key!r}:, got {block[:40]!r}")
    lines = text.splitlines(keepends=True)
    new = [line if line.endswith("\n") else line + "\n" for line in block.splitlines(keepends=True)]
    span = _span(lines, key)
    if span is None:
        anchor = _span(lines, after)
        if anchor is None:
            raise ValueError(f"no top-level key {after!r} to put {key!r} after")
        span = (anchor[1], anchor[1])
    start, end = span
    return "".join(lines[:start] + new + lines[end:])


def drop_block(text: str, key: str) -> str:
    """Return ``text`` without its top-level ``key`` block (unchanged when there is none)."""
    lines = text.splitlines(keepends=True)
    span = _span(lines, key)
    if span is None:
        return text
    start, end = span
    return "".join(lines[:start] + lines[end:])


def _span(lines: list[str], key: str) -> tuple[int, int] | None:
    head = re.compile(rf"^{re.escape(key)}:(\s|$)")
    for i, line in enumerate(lines):
        if head.match(line):
            end = i + 1
            while end < len(lines) and (lines[end].startswith((" ", "\t")) or not lines[end].strip()):
                end += 1
            while end > i + 1 and not lines[end - 1].strip():  # leave blank lines after the block
                end -= 1
            return i, end
    return None
