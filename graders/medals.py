"""Kaggle's medal thresholds, as MLE-bench derives them from a leaderboard, and the medals a score earns.

Given ``n`` teams on the leaderboard, each medal's threshold is the score at a position that depends on
``n`` (the table below; positions are 1-based, ``int`` truncates)::

    teams n            gold                silver             bronze
    1 <= n < 100       max(1, int(0.1 n))  max(1, int(0.2 n))  max(1, int(0.4 n))
    100 <= n < 250     10                  max(1, int(0.2 n))  max(1, int(0.4 n))
    250 <= n < 1000    10 + int(0.002 n)   50                  100
    n >= 1000          10 + int(0.002 n)   max(1, int(0.05 n)) max(1, int(0.1 n))

Every position is ``max(1, fixed + int(fraction * n))`` for the bracket's ``(fixed, fraction)``; the
fractions are the same float literals MLE-bench multiplies by, so truncation matches it exactly.
Rows whose score is NaN still count as teams. The median threshold is the median of the scores with NaN
skipped.
"""

from __future__ import annotations

from collections.abc import Sequence

import pandas as pd

from .result import NO_MEDALS, Medals, Thresholds

__all__ = ["NO_MEDALS", "Medals", "Thresholds", "award", "medal_positions", "thresholds"]

# (fewest teams, gold rule, silver rule, bronze rule), most teams first; a rule is (fixed, fraction).
_BRACKETS: tuple[tuple[int, tuple[int, float], tuple[int, float], tuple[int, float]], ...] = (
    (1000, (10, 0.002), (0, 0.05), (0, 0.1)),
    (250, (10, 0.002), (50, 0.0), (100, 0.0)),
    (100, (10, 0.0), (0, 0.2), (0, 0.4)),
    (1, (0, 0.1), (0, 0.2), (0, 0.4)),
)


def medal_positions(n_teams: int) -> tuple[int, int, int]:
    """Return the 1-based leaderboard positions of the gold, silver and bronze thresholds for ``n_teams``.

    Examples
    --------
    >>> medal_positions(50), medal_positions(150), medal_positions(500), medal_positions(2000)
    ((5, 10, 20), (10, 30, 60), (11, 50, 100), (14, 100, 200))

    """
    if n_teams < 1:
        raise ValueError(f"a leaderboard needs at least one team, got {n_teams}")
    rules = next(rules for fewest, *rules in _BRACKETS if n_teams >= fewest)
    gold, silver, bronze = (max(1, fixed + int(fraction * n_teams)) for fixed, fraction in rules)
    return gold, silver, bronze


def thresholds(scores_best_first: Sequence[float]) -> Thresholds:
    """Compute the medal thresholds from a leaderboard's scores, best team first.

    Examples
    --------
    >>> thresholds([0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2, 0.1, 0.0])
    Thresholds(gold=0.9, silver=0.8, bronze=0.6, median=0.45)

    """
    scores = [float(s) for s in scores_best_first]
    gold, silver, bronze = medal_positions(len(scores))
    median = float(pd.Series(scores, dtype=float).median())  # NaN skipped, as pandas does
    return Thresholds(scores[gold - 1], scores[silver - 1], scores[bronze - 1], median)


def award(score: float | None, t: Thresholds, higher_is_better: bool) -> Medals:
    """Return the medals ``score`` earns against thresholds ``t``.

    A score equal to a threshold earns that medal; ``above_median`` is strict. ``None`` (no valid
    submission) and NaN earn nothing, since every comparison with NaN is false.

    Examples
    --------
    >>> t = Thresholds(gold=0.9, silver=0.8, bronze=0.6, median=0.45)
    >>> award(0.8, t, higher_is_better=True)
    Medals(gold=False, silver=True, bronze=False, any_medal=True, above_median=True)
    >>> award(0.45, t, higher_is_better=True).above_median
    False

    """
    if score is None:
        return NO_MEDALS
    score = float(score)

    def reaches(threshold: float) -> bool:
        return score >= threshold if higher_is_better else score <= threshold

    gold = reaches(t.gold)
    silver = not gold and reaches(t.silver)
    bronze = not gold and not silver and reaches(t.bronze)
    above_median = score > t.median if higher_is_better else score < t.median
    return Medals(gold, silver, bronze, any_medal=gold or silver or bronze, above_median=above_median)
