"""Wording shared by the error messages of the readers and validators."""

from __future__ import annotations

from collections.abc import Iterable

SHOWN = 5
"""How many examples a message quotes before saying "and N more"."""


def count(n: int, noun: str) -> str:
    """``count(1, "row") == "1 row"``, ``count(2, "row") == "2 rows"``."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def quote(names: Iterable[object]) -> str:
    """Names joined by commas, each in ``repr`` quotes."""
    return ", ".join(repr(n) for n in names)


def some(shown: list[str], total: int) -> str:
    """At most ``SHOWN`` examples out of ``total``, saying how many more there are."""
    text = ", ".join(shown[:SHOWN])
    return f"{text} and {total - SHOWN} more" if total > SHOWN else text
