"""A leaderboard's rounds: the task's population, then refinements of its best entries.

A task may propose, for one entry, the settings a team would try next (a ``neighbours`` method). The
second round is those refinements of the :data:`REFINED` best first-round entries, new teams only: real
leaderboards are crowded at the top because teams tweak their best submissions.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from authoring.leaderboards.solution import Solution

__all__ = ["REFINED", "ladder_steps", "population", "second_round"]

REFINED = 15
"""How many of the best first-round entries the second round refines."""


def ladder_steps(ladder: tuple, value: object) -> list:
    """Return the values one step either way of ``value`` along ``ladder`` (none when it is off the ladder).

    >>> ladder_steps((1, 2, 3), 1), ladder_steps((1, 2, 3), 2), ladder_steps((1, 2, 3), 7)
    ([2], [1, 3], [])
    """
    if value not in ladder:
        return []
    at = ladder.index(value)
    return [ladder[i] for i in (at - 1, at + 1) if 0 <= i < len(ladder)]


def second_round(task: Any, first: list[Solution], ranked: Iterable[str]) -> list[Solution]:
    """Return the task's refinements of the :data:`REFINED` best entries of ``first`` (new teams).

    ``ranked`` lists teams best first; teams not in ``first`` are skipped, so a committed leaderboard (both
    rounds) gives the same second round as the first round's own ranking. Empty when the task proposes no
    refinements.
    """
    propose = getattr(task, "neighbours", None)
    if propose is None:
        return []
    by_team = {s.team: s for s in first}
    best = [by_team[team] for team in ranked if team in by_team][:REFINED]
    seen, out = set(by_team), []
    for entry in best:
        for refined in propose(entry):
            if refined.team not in seen:
                seen.add(refined.team)
                out.append(refined)
    return out


def population(task: Any, ranked: Iterable[str]) -> list[Solution]:
    """Both rounds of a task's population; ``ranked``: the committed leaderboard's teams, best first."""
    first = task.population()
    return [*first, *second_round(task, first, ranked)]
