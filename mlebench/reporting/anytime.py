"""The medal rate against the time budget, from the graded any-time snapshots in the grading records.

A grading record may hold ``snapshots`` (:func:`mlebench.reporting.records.snapshot_grade`): the cell's
submission at each mark (seconds since the agent started), graded. At a mark ``m`` a cell counts:

- its final grade when its agent had already finished by ``m`` (``timings.agent_seconds`` ≤ ``m``): the
  final submission is what it had then;
- else its latest snapshot at or before ``m``;
- else nothing yet: no submission, no medal.

A cell without snapshots therefore contributes only its final grade, once its agent has finished. Each
mark's figures are then computed exactly as the headline's (:func:`mlebench.reporting.stats.split_figures`:
any-medal % per seed over the group's competitions, mean ± SEM over seeds), under the same rule for which
cells count (:func:`mlebench.reporting.verdicts.counted`); ``end`` is the headline itself.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mlebench.reporting.stats import entries_by_competition, format_pm, split_figures
from mlebench.reporting.verdicts import UNCHECKED, counted

STATE_KEYS = (
    "status",
    "score",
    "any_medal",
    "gold_medal",
    "silver_medal",
    "bronze_medal",
    "above_median",
    "valid_submission",
    "submission_exists",
)
NOTHING_YET = {
    "status": "no_submission",
    "score": None,
    **dict.fromkeys(STATE_KEYS[2:], False),
}
Key = tuple[str, str, int]


def snapshot_marks(records: list[Mapping[str, Any]]) -> list[int]:
    """Every mark any record's snapshots were taken at, sorted."""
    return sorted({int(s["mark_secs"]) for r in records for s in r.get("snapshots") or []})


def state_at(record: Mapping[str, Any], mark: int) -> dict[str, Any]:
    """Return the record as it stood ``mark`` seconds after its agent started: see the module docstring.

    >>> rec = {"any_medal": True, "timings": {"agent_seconds": 100.0},
    ...        "snapshots": [{"mark_secs": 30, "any_medal": False}]}
    >>> [state_at(rec, m)["any_medal"] for m in (10, 30, 60, 100)]
    [False, False, False, True]
    """
    seconds = (record.get("timings") or {}).get("agent_seconds")
    if seconds is not None and seconds <= mark:
        return dict(record)
    taken = [s for s in record.get("snapshots") or [] if s["mark_secs"] <= mark]
    if taken:
        latest = max(taken, key=lambda s: s["mark_secs"])
        return {**record, **{k: latest.get(k) for k in STATE_KEYS}}
    return {**record, **NOTHING_YET}


def anytime_table(
    by_cell: Mapping[Key, Mapping[str, Any]],
    verdicts: Mapping[Key, Mapping[str, Any]],
    agents: list[str],
    groups: Mapping[str, list[str]],
    seeds: list[int],
    pad_missing: bool = False,
    count_flagged: bool = False,
    as_scored: bool = False,
) -> dict[str, Any]:
    """Any-medal % (mean ± SEM over seeds) per agent and group at every snapshot mark and at the end.

    ``{}`` when no record that counts holds snapshots. Otherwise ``{"marks": [...], "agents": {agent:
    {group: [row, ...]}}}``, one row per mark and a last one with ``mark_secs`` null (the end), each row
    ``{"mark_secs", "any_medal": {"mean", "sem", "ci95", "per_seed"}, "seeds"}``. Cells count as in the
    headline, or, with ``as_scored``, every graded cell as scored.
    """
    records = [
        r
        for k, r in by_cell.items()
        if k[0] in agents and k[2] in seeds and (as_scored or counted(r, verdicts.get(k), count_flagged))
    ]
    marks = snapshot_marks(records)
    if not marks:
        return {}
    table: dict[str, Any] = {"marks": marks, "agents": {}}
    for agent in agents:
        mine = {k: r for k, r in by_cell.items() if k[0] == agent and k[2] in seeds}
        rows: dict[str, list[dict[str, Any]]] = {}
        for group, members in groups.items():
            rows[group] = [
                _row(mark, _at(mine, mark, verdicts, count_flagged, as_scored), agent, members, pad_missing)
                for mark in [*marks, None]
            ]
        table["agents"][agent] = rows
    return table


def curve_points(records: list[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """Return the points :func:`mlebench.reporting.stats.anytime_curves` draws.

    Each snapshot at its mark, and each cell's final grade when its agent finished; none when no record
    holds snapshots.
    """
    if not snapshot_marks(records):
        return []
    points = []
    for r in records:
        base = {"agent": r["agent"], "competition_id": r["competition_id"], "seed": r["seed"]}
        for snap in r.get("snapshots") or []:
            points.append({**base, "elapsed_secs": snap["mark_secs"], "any_medal": bool(snap["any_medal"])})
        seconds = (r.get("timings") or {}).get("agent_seconds")
        if seconds is not None:
            points.append({**base, "elapsed_secs": round(seconds), "any_medal": bool(r["any_medal"])})
    return points


def markdown_lines(report: Mapping[str, Any]) -> list[str]:
    """Render the report's any-time section in Markdown: headline cells, then all as scored."""
    lines = ["## Any-time: medal rate against the time budget", ""]
    if not (report.get("anytime_table") or report.get("anytime_as_scored")):
        return [*lines, "No snapshots: no grading record holds graded snapshots for this plan.", ""]
    lines += [
        "Any-medal % (mean ± SEM over seeds) with the submission each cell had at each mark (seconds since "
        "its agent started; a cell whose agent had finished counts its final grade, one with nothing yet "
        "counts no medal); `end`: the final grades (for headline cells, the headline).",
        "",
    ]
    for title, key in (
        ("Headline cells", "anytime_table"),
        ("Every graded cell, as scored", "anytime_as_scored"),
    ):
        part = report.get(key) or {}
        if not part:
            continue
        marks = part["marks"]
        lines += [f"**{title}**", ""]
        lines.append("| agent | group | " + " | ".join(f"{m} s" for m in marks) + " | end |")
        lines.append("|---|---|" + "---:|" * (len(marks) + 1))
        for agent, groups in part["agents"].items():
            for group, rows in groups.items():
                cells = [format_pm(row["any_medal"]) for row in rows]
                lines.append(f"| {agent} | {group} | " + " | ".join(cells) + " |")
        lines.append("")
    return lines


def _at(
    mine: Mapping[Key, Mapping[str, Any]],
    mark: int | None,
    verdicts: Mapping[Key, Mapping[str, Any]],
    count_flagged: bool,
    as_scored: bool,
) -> list[Mapping[str, Any]]:
    out = []
    for key, record in mine.items():
        state = dict(record) if mark is None else state_at(record, mark)
        kept = state if as_scored else counted(state, verdicts.get(key, UNCHECKED), count_flagged)
        if kept is not None:
            out.append(kept)
    return out


def _row(
    mark: int | None, records: list[Mapping[str, Any]], agent: str, members: list[str], pad_missing: bool
) -> dict[str, Any]:
    figures = split_figures(entries_by_competition(records, agent, members), members, pad_missing)
    return {"mark_secs": mark, "any_medal": figures["metrics"]["any_medal"], "seeds": figures["seeds"]}
