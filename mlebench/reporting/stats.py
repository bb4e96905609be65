"""Leaderboard statistics: per-split percentages over seeds, as MLE-bench's aggregation computes them.

MLE-bench v1 (``experiments/aggregate_grading_reports.py``) groups the graded entries by competition, keeps
each competition's entries in order, and builds seed *i* from the *i*-th entry of every competition of the
split. Without padding the number of seeds is the smallest entry count among the split's competitions
(later entries are left out); with ``--pad-missing`` it is the largest, and an absent entry counts as no
submission and no medal. Each seed's percentage is ``100 · count / T`` over the split's ``T``
competitions; across seeds it reports the mean, the standard error of the mean (sample standard deviation
with ddof 1 over sqrt(n), scipy's ``sem``) and mean ± 1.96 · SEM.

Here a competition's entries are its graded cells in seed order. Where MLE-bench's SEM of a single seed is
NaN, we write ``None`` (JSON null, shown as n/a).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from typing import Any

SPLITS: dict[str, tuple[str, ...]] = {
    "low": ("low",),
    "medium": ("medium",),
    "high": ("high",),
    "all": ("low", "medium", "high"),
    "embedded": ("embedded",),
    "mlops": ("mlops",),
}
"""The leaderboard's splits by the complexities they hold (MLE-bench: Low == Lite, Medium, High, All =
``split75``), ours of embedded competitions, and the MLOps set's (docs/mlops.md), never part of All."""

PERCENTAGES: dict[str, Callable[[Mapping[str, Any]], bool]] = {
    "any_medal": lambda r: bool(r["any_medal"]),
    "gold_medal": lambda r: bool(r["gold_medal"]),
    "silver_medal": lambda r: bool(r["silver_medal"]),
    "bronze_medal": lambda r: bool(r["bronze_medal"]),
    "above_median": lambda r: bool(r["above_median"]),
    "valid_submission": lambda r: bool(r["valid_submission"]),
    "submission_exists": lambda r: bool(r["submission_exists"]),
}
"""The per-seed percentages MLE-bench reports (submissions made, valid, above median, medals)."""

Z_95 = 1.96


def mean_sem(values: list[float]) -> tuple[float, float | None]:
    """Mean and standard error: sample standard deviation (ddof 1) over sqrt(n); None for one value.

    >>> mean_sem([10.0, 20.0, 30.0])
    (20.0, 5.773502691896258)
    >>> mean_sem([50.0])
    (50.0, None)
    """
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, None
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def split_members(complexity: Mapping[str, str], competition_ids: list[str]) -> dict[str, list[str]]:
    """Each leaderboard split the plan's competitions cover, with the plan's members of it (sorted).

    >>> split_members({"a": "low", "b": "high", "c": "dev"}, ["a", "b", "c"])
    {'low': ['a'], 'high': ['b'], 'all': ['a', 'b']}
    """
    out = {}
    for split, levels in SPLITS.items():
        members = sorted(c for c in competition_ids if complexity[c] in levels)
        if members:
            out[split] = members
    return out


def declared_sizes(complexities: Iterable[str]) -> dict[str, int]:
    """How many competitions each split has among all declarations, from their complexities.

    >>> declared_sizes(["low", "low", "high", "embedded"])
    {'low': 2, 'medium': 0, 'high': 1, 'all': 3, 'embedded': 1, 'mlops': 0}
    """
    counts = Counter(complexities)
    return {split: sum(counts[level] for level in levels) for split, levels in SPLITS.items()}


def split_figures(
    entries: Mapping[str, list[Mapping[str, Any]]], members: list[str], pad_missing: bool = False
) -> dict[str, Any]:
    """One split's figures from each member's graded entries (in seed order), MLE-bench's way.

    Returns ``seeds`` (how many were formed), ``padded_entries`` (absent entries counted as failing; 0
    without padding), ``missing`` (members with no entry at all) and, per percentage of
    :data:`PERCENTAGES`, ``mean``, ``sem``, ``ci95`` (mean ± 1.96 · SEM) and ``per_seed``. With no seed
    (a member has no entry and padding is off) the means are None.
    """
    counts = [len(entries.get(c, [])) for c in members]
    n = (max(counts) if pad_missing else min(counts)) if members else 0
    metrics: dict[str, Any] = {}
    for name, flag in PERCENTAGES.items():
        per_seed = [
            100.0 * sum(i < len(entries.get(c, [])) and flag(entries[c][i]) for c in members) / len(members)
            for i in range(n)
        ]
        mean, sem = mean_sem(per_seed) if per_seed else (None, None)
        ci95 = None if sem is None or mean is None else [mean - Z_95 * sem, mean + Z_95 * sem]
        metrics[name] = {"mean": mean, "sem": sem, "ci95": ci95, "per_seed": per_seed}
    return {
        "seeds": n,
        "padded_entries": sum(max(0, n - k) for k in counts),
        "missing": [c for c, k in zip(members, counts, strict=True) if k == 0],
        "metrics": metrics,
    }


def entries_by_competition(
    records: list[Mapping[str, Any]], agent: str, members: list[str]
) -> dict[str, list[Mapping[str, Any]]]:
    """One agent's graded entries per competition, in seed order (MLE-bench's order of run groups)."""
    out: dict[str, list[Mapping[str, Any]]] = {c: [] for c in members}
    for record in sorted(records, key=lambda r: r["seed"]):
        if record["agent"] == agent and record["competition_id"] in out:
            out[record["competition_id"]].append(record)
    return out


def leaderboard_row(figures: Mapping[str, Mapping[str, Any]]) -> str:
    """Format the leaderboard's row: any-medal % mean ± SEM for Low, Medium, High, All ("–": uncovered).

    Embedded and MLOps competitions are in none of the leaderboard's columns; their splits follow when
    covered.

    >>> leaderboard_row({"low": {"metrics": {"any_medal": {"mean": 50.0, "sem": 5.0}}}})
    'Low (Lite) 50.00 ± 5.00 | Medium – | High – | All –'
    """
    cells = []
    columns = [("low", "Low (Lite)"), ("medium", "Medium"), ("high", "High"), ("all", "All")]
    ours = [(s, label) for s, label in (("embedded", "Embedded"), ("mlops", "MLOps")) if s in figures]
    for split, label in columns + ours:
        metric = figures.get(split, {}).get("metrics", {}).get("any_medal")
        cells.append(f"{label} {format_pm(metric, 2) if metric else '–'}")
    return " | ".join(cells)


def format_pm(metric: Mapping[str, Any], digits: int = 1) -> str:
    """``mean ± sem`` of one percentage (``n/a`` for a missing mean or SEM).

    >>> format_pm({"mean": 12.5, "sem": None})
    '12.5 ± n/a'
    """
    if metric.get("mean") is None:
        return "n/a"
    sem = "n/a" if metric.get("sem") is None else f"{metric['sem']:.{digits}f}"
    return f"{metric['mean']:.{digits}f} ± {sem}"


def anytime_curves(
    snapshots: list[Mapping[str, Any]], agents: list[str], competition_ids: list[str], seeds: list[int]
) -> dict[str, Any]:
    """Any-medal % over time per agent, from graded snapshot records; ``{}`` when there are none.

    A snapshot record names ``agent``, ``competition_id``, ``seed``, ``elapsed_secs`` (since the agent
    started) and ``any_medal`` (its submission at that moment, graded). At each time a snapshot was taken,
    a cell counts its latest snapshot so far (none yet: no medal); the percentage is over the set's
    competitions, averaged over the plan's seeds.

    >>> snaps = [{"agent": "x", "competition_id": "a", "seed": 0, "elapsed_secs": 60, "any_medal": True}]
    >>> anytime_curves(snaps, ["x"], ["a", "b"], [0])["x"]
    {'elapsed_secs': [60], 'any_medal_pct': [50.0]}
    """
    out: dict[str, Any] = {}
    for agent in agents:
        mine = sorted(
            (s for s in snapshots if s["agent"] == agent and s["competition_id"] in competition_ids),
            key=lambda s: s["elapsed_secs"],
        )
        if not mine:
            continue
        state: dict[tuple[str, int], bool] = {}
        times: list[Any] = []
        pcts: list[float] = []
        for snap in mine:
            state[(snap["competition_id"], snap["seed"])] = bool(snap["any_medal"])
            pct = sum(state.values()) * 100.0 / (len(competition_ids) * len(seeds))
            if times and times[-1] == snap["elapsed_secs"]:
                pcts[-1] = pct
            else:
                times.append(snap["elapsed_secs"])
                pcts.append(pct)
        out[agent] = {"elapsed_secs": times, "any_medal_pct": pcts}
    return out


def agent_figures(
    records: list[Mapping[str, Any]],
    agent: str,
    complexity: Mapping[str, str],
    competition_ids: list[str],
    pad_missing: bool = False,
) -> dict[str, dict[str, Any]]:
    """One agent's figures for each leaderboard split the competitions cover (see :func:`split_figures`)."""
    out = {}
    for split, members in split_members(complexity, competition_ids).items():
        figures = split_figures(entries_by_competition(records, agent, members), members, pad_missing)
        out[split] = {"competitions": len(members), **figures}
    return out
