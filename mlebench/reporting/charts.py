"""The report's charts, drawn with matplotlib as SVG text to inline in ``report.html`` (nothing fetched).

Each function takes the report (``report.json``'s content) and returns one ``<svg>`` element of class
``chart``. Marks carry ids (``bar-<agent>-<group>``, ``score-<agent>-<competition>-<seed>``,
``status-<agent>-<status>``, ``anytime-<agent>``) so a test can count what was drawn. Output is byte-stable
for the same report: no dates, and a fixed hash salt per chart (distinct, so ids never collide on a page).
"""

from __future__ import annotations

import io
import re
from collections.abc import Callable
from typing import Any

import matplotlib as mpl
from matplotlib.figure import Figure

from mlebench.reporting.records import STATUSES

SCALE = ("median", "bronze", "silver", "gold")
"""The medal scale's marks: a score at a threshold sits at its index (median 0 … gold 3)."""
SCALE_LIMITS = (-1.5, 4.0)
STATUS_COLOURS = {
    "ok": "#4c9a2a",
    "invalid_submission": "#e0a030",
    "no_submission": "#b0b0b0",
    "agent_timeout": "#c05050",
    "agent_error": "#a02020",
    "infra_error": "#7050a0",
    "grader_error": "#303030",
    "missing": "#e8e8e8",
}


def medal_scale(score: float, thresholds: dict[str, float], lower_is_better: bool) -> float:
    """Place a score on one axis every metric shares: median 0, bronze 1, silver 2, gold 3.

    Piecewise linear between the thresholds, in the metric's direction; beyond them the nearest segment's
    slope continues (a score can fall below the median or beat gold).

    >>> limits = {"median": 0.5, "bronze": 0.7, "silver": 0.8, "gold": 0.9}
    >>> [round(medal_scale(s, limits, False), 6) for s in (0.75, 0.3, 1.0)]
    [1.5, -1.0, 4.0]
    >>> medal_scale(2.0, {"median": 4.0, "bronze": 3.0, "silver": 2.0, "gold": 1.0}, True)
    2.0
    """
    sign = -1.0 if lower_is_better else 1.0
    marks = [sign * thresholds[name] for name in SCALE]
    value = sign * score
    span = (marks[-1] - marks[0]) / 3 or 1.0
    if value <= marks[0]:
        step = (marks[1] - marks[0]) or span
        return (value - marks[0]) / step
    for i in range(3):
        if value <= marks[i + 1]:
            step = marks[i + 1] - marks[i]
            return i + ((value - marks[i]) / step if step else 1.0)
    step = (marks[3] - marks[2]) or span
    return 3 + (value - marks[3]) / step


def medal_bars(report: dict[str, Any]) -> str:
    """Draw grouped bars: any-medal % per group (set and splits), one bar per agent, SEM as error bars."""
    agents = list(report["agents"])
    groups = list(next(iter(report["agents"].values()))["groups"]) if agents else []
    fig = Figure(figsize=(max(4.0, 1.4 * len(groups) + 2), 3.2))
    ax = fig.add_subplot()
    width = 0.8 / max(1, len(agents))
    top = 10.0
    for i, agent in enumerate(agents):
        for j, group in enumerate(groups):
            metric = report["agents"][agent]["groups"][group]["metrics"]["any_medal"]
            mean, sem = metric["mean"] or 0.0, metric["sem"] or 0.0
            top = max(top, mean + sem)
            x = j - 0.4 + width * (i + 0.5)
            bar = ax.bar(x, mean, width * 0.9, color=f"C{i}", label=agent if j == 0 else None)
            bar.patches[0].set_gid(_id("bar", agent, group))
            ax.text(x, mean + sem, f"{mean:.1f}", ha="center", va="bottom", fontsize=7)
            if metric["sem"]:
                ax.errorbar(x, mean, yerr=sem, color="black", capsize=3, linewidth=1)
    ax.set_xticks(range(len(groups)), groups)
    ax.set_ylabel("any medal % (mean ± SEM)")
    ax.set_ylim(0, min(100.0, top * 1.15) if top < 87 else 100.0)
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=4, fontsize=8, frameon=False)
    ax.grid(axis="y", alpha=0.3)
    return _svg(fig, "medal-bars")


def threshold_strip(report: dict[str, Any]) -> str:
    """Per competition, every graded score on the medal scale, next to the median/bronze/silver/gold marks."""
    agents = list(report["agents"])
    comps = report["competitions"]
    fig = Figure(figsize=(8.0, 1.2 + 0.4 * len(comps) * max(1, len(agents)) ** 0.5))
    ax = fig.add_subplot()
    low, high = SCALE_LIMITS
    labelled: set[str] = set()
    for k, colour in enumerate(("#888", "#cd7f32", "#a8a8a8", "#d4af37")):
        ax.axvline(k, color=colour, linewidth=1.5, zorder=0)
    for row, cid in enumerate(reversed(comps)):
        for i, agent in enumerate(agents):
            offset = (i - (len(agents) - 1) / 2) * 0.6 / max(1, len(agents))
            for cell in report["agents"][agent]["per_competition"][cid]:
                if cell["score"] is None or cell["score"] != cell["score"] or cell["gold_threshold"] is None:
                    continue
                limits = {name: cell[f"{name}_threshold"] for name in SCALE}
                x = medal_scale(cell["score"], limits, bool(cell["is_lower_better"]))
                clipped = not low <= x <= high
                marker = ax.scatter(
                    min(max(x, low), high),
                    row + offset,
                    color=f"C{i}",
                    s=22,
                    zorder=3,
                    marker=(">" if x > high else "<") if clipped else "o",
                    label=None if agent in labelled else agent,
                )
                labelled.add(agent)
                marker.set_gid(_id("score", agent, cid, cell["seed"]))
    ax.set_yticks(range(len(comps)), list(reversed(comps)), fontsize=8)
    ax.set_ylim(-0.6, len(comps) - 0.4)
    ax.set_xlim(low - 0.1, high + 0.1)
    ax.set_xticks([-1, *range(len(SCALE)), 4], ["below", *SCALE, "beyond"])
    ax.set_xlabel("score on the medal scale, better to the right (clipped: ◂ ▸)")
    ax.grid(axis="y", alpha=0.2)
    handles, labels = ax.get_legend_handles_labels()
    if handles:
        ax.legend(
            handles, labels, loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=4, fontsize=8, frameon=False
        )
    return _svg(fig, "threshold-strip")


def status_bars(report: dict[str, Any]) -> str:
    """One stacked horizontal bar per agent: how its cells ended (and how many are not graded yet)."""
    agents = list(report["agents"])
    names = [*STATUSES, "missing"]
    fig = Figure(figsize=(7.0, 0.9 + 0.45 * len(agents)))
    ax = fig.add_subplot()
    labelled: set[str] = set()
    for row, agent in enumerate(agents):
        left = 0
        counts = report["agents"][agent]["status_counts"]
        for status in names:
            n = counts.get(status, 0)
            if not n:
                continue
            label = None if status in labelled else status
            labelled.add(status)
            bar = ax.barh(row, n, left=left, color=STATUS_COLOURS[status], label=label, edgecolor="white")
            bar.patches[0].set_gid(_id("status", agent, status))
            left += n
    ax.set_yticks(range(len(agents)), agents)
    ax.invert_yaxis()
    ax.set_xlabel("cells")
    ax.legend(loc="lower center", bbox_to_anchor=(0.5, 1.0), ncol=4, fontsize=7, frameon=False)
    return _svg(fig, "status-bars")


def anytime_chart(report: dict[str, Any]) -> str:
    """Any-medal % against time since the agents started, from snapshot records (one line per agent)."""
    fig = Figure(figsize=(6.0, 3.0))
    ax = fig.add_subplot()
    for i, (agent, curve) in enumerate(report["anytime"].items()):
        hours = [t / 3600 for t in curve["elapsed_secs"]]
        (line,) = ax.step(hours, curve["any_medal_pct"], where="post", color=f"C{i}", label=agent)
        line.set_gid(_id("anytime", agent))
    ax.set_xlabel("hours since the agent started")
    ax.set_ylabel("any medal %")
    ax.set_ylim(0, 100)
    ax.legend(fontsize=8)
    ax.grid(alpha=0.3)
    return _svg(fig, "anytime")


CHARTS: dict[str, Callable[[dict[str, Any]], str]] = {
    "medal_bars": medal_bars,
    "threshold_strip": threshold_strip,
    "status_bars": status_bars,
    "anytime": anytime_chart,
}


def _id(*parts: object) -> str:
    return "-".join(re.sub(r"[^A-Za-z0-9_.]+", "_", str(p)) for p in parts)


def _svg(fig: Figure, name: str) -> str:
    buf = io.StringIO()
    with mpl.rc_context({"svg.hashsalt": f"mlebench-{name}", "svg.fonttype": "none"}):
        fig.savefig(buf, format="svg", metadata={"Date": None}, bbox_inches="tight")
    text = buf.getvalue()
    text = text[text.index("<svg") :]
    return text.replace("<svg ", f'<svg class="chart" data-chart="{name}" role="img" ', 1)
