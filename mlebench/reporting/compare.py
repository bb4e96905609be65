"""A paired comparison of two agents: the any-medal difference, its bootstrap CI and a permutation test.

Cells are paired by competition and seed: ``d(c, s) = medal_A(c, s) − medal_B(c, s)`` for every competition
``c`` and seed ``s`` both agents have graded. The difference in any-medal percentage points is
``100 · mean over competitions of (mean over c's paired seeds of d)``, each competition weighing the same,
as in the any-medal percentage itself. As in the leaderboard's SEM the competitions are fixed and the seeds
are the random part, so:

- the 95% confidence interval is a percentile bootstrap that resamples each competition's paired seeds with
  replacement (stratified by competition);
- the p-value is a two-sided sign-flip permutation test: under "no difference" either agent of a pair is
  equally likely to be the one that medalled, so each ``d(c, s)`` keeps or flips its sign. Exact over every
  flip when at most :data:`EXACT_UP_TO` pairs differ, else Monte Carlo with ``(1 + k) / (1 + n)``.

Fixed seeds make both reproducible.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from typing import Any

import numpy as np

EXACT_UP_TO = 16
BOOTSTRAP = 10_000
PERMUTATIONS = 20_000


def paired_comparison(
    by_cell: Mapping[tuple[str, str, int], Mapping[str, Any]],
    a: str,
    b: str,
    competition_ids: list[str],
    seeds: list[int],
    rng_seed: int = 0,
) -> dict[str, Any]:
    """Compare agent ``a`` with ``b`` on ``competition_ids``, paired over ``seeds`` (``a − b``).

    ``by_cell`` maps (agent, competition, seed) to a grading record. Returns ``difference_pct``, ``ci95``,
    ``p_value``, ``test`` (how the p-value was computed), ``pairs``, ``per_competition`` (each agent's
    any-medal % over the paired seeds and their difference) and ``unpaired`` (competitions without a pair).
    """
    diffs: dict[str, np.ndarray] = {}
    per_competition: dict[str, Any] = {}
    for cid in competition_ids:
        pairs = [
            (bool(by_cell[(a, cid, s)]["any_medal"]), bool(by_cell[(b, cid, s)]["any_medal"]))
            for s in seeds
            if (a, cid, s) in by_cell and (b, cid, s) in by_cell
        ]
        if not pairs:
            continue
        d = np.array([x - y for x, y in pairs], dtype=float)
        diffs[cid] = d
        per_competition[cid] = {
            "pairs": len(pairs),
            "a_pct": 100.0 * sum(x for x, _ in pairs) / len(pairs),
            "b_pct": 100.0 * sum(y for _, y in pairs) / len(pairs),
            "difference_pct": 100.0 * float(d.mean()),
        }
    out: dict[str, Any] = {
        "a": a,
        "b": b,
        "metric": "any_medal",
        "pairs": sum(len(d) for d in diffs.values()),
        "competitions": len(diffs),
        "unpaired": [c for c in competition_ids if c not in diffs],
        "difference_pct": None,
        "ci95": None,
        "p_value": None,
        "test": "",
        "per_competition": per_competition,
    }
    if not diffs:
        return out
    rng = np.random.default_rng(rng_seed)
    out["difference_pct"] = _statistic(diffs)
    out["ci95"] = _bootstrap_ci(diffs, rng)
    out["p_value"], out["test"] = _sign_flip_p(diffs, rng)
    return out


def _statistic(diffs: Mapping[str, np.ndarray]) -> float:
    return 100.0 * float(np.mean([d.mean() for d in diffs.values()]))


def _bootstrap_ci(diffs: Mapping[str, np.ndarray], rng: np.random.Generator) -> list[float]:
    total = np.zeros(BOOTSTRAP)
    for d in diffs.values():
        picks = rng.integers(0, len(d), size=(BOOTSTRAP, len(d)))
        total += d[picks].mean(axis=1)
    boot = 100.0 * total / len(diffs)
    low, high = np.percentile(boot, [2.5, 97.5])
    return [float(low), float(high)]


def _sign_flip_p(diffs: Mapping[str, np.ndarray], rng: np.random.Generator) -> tuple[float, str]:
    """Two-sided p-value of the statistic under random sign flips of each pair's difference."""
    weights, values = [], []
    for d in diffs.values():
        for v in d:
            if v != 0:
                weights.append(100.0 / (len(diffs) * len(d)))
                values.append(v)
    if not values:
        return 1.0, "sign-flip permutation, exact (no pair differs)"
    contrib = np.array(weights) * np.array(values)
    observed = abs(float(contrib.sum())) - 1e-9
    if len(contrib) <= EXACT_UP_TO:
        signs = np.array(list(itertools.product((1.0, -1.0), repeat=len(contrib))))
        hits = int((np.abs(signs @ contrib) >= observed).sum())
        return hits / len(signs), f"sign-flip permutation, exact over {len(signs)} flips"
    signs = rng.choice((1.0, -1.0), size=(PERMUTATIONS, len(contrib)))
    hits = int((np.abs(signs @ contrib) >= observed).sum())
    return (1 + hits) / (1 + PERMUTATIONS), f"sign-flip permutation, Monte Carlo over {PERMUTATIONS} flips"
