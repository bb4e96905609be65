"""Aggregate grading records into the report: any-medal % as mean ± SEM over complete seeds.

As MLE-bench's aggregation does: for each seed, a percentage is 100 · count / T over the T competitions of
the set; across seeds we report the mean and the standard error of the mean, SEM = sample standard
deviation (ddof = 1) / sqrt(n), which is 0 for a single seed. A seed is *complete* when every competition of
the set has a record for it; incomplete seeds are left out and named in the report.
"""

from __future__ import annotations

import json
import math
from collections import Counter
from pathlib import Path
from typing import Any

from mlebench.data.audit import known_leaks
from mlebench.reporting.records import STATUSES
from mlebench.spec.declarations import load_competition
from mlebench.spec.files import write_json, write_text
from mlebench.spec.paths import audit_path, grade_path, report_dir

PERCENTAGES = {
    "any_medal": lambda r: r["any_medal"],
    "gold_medal": lambda r: r["gold_medal"],
    "silver_medal": lambda r: r["silver_medal"],
    "bronze_medal": lambda r: r["bronze_medal"],
    "above_median": lambda r: r["above_median"],
    "valid_submission": lambda r: r["valid_submission"],
    "submission_exists": lambda r: r["submission_exists"],
}


def write_report(
    agents: list[str], competition_set: dict[str, Any], seeds: list[int], root: Path | None = None
) -> dict[str, Any]:
    """Aggregate every grading record of the plan into ``report/{report.json,report.md,metrics.json}``."""
    ids = competition_set["ids"]
    records = load_records([grade_path(a, c, s, root) for a in agents for c in ids for s in seeds])
    complexity = {c: load_competition(c, root).complexity for c in ids}
    leaks = {c: known_leaks(json.loads(audit_path(c, root).read_text(encoding="utf-8"))) for c in ids}
    report = aggregate(records, agents, ids, seeds, competition_set["name"], complexity, leaks)
    out = report_dir(root)
    write_json(out / "report.json", report)
    write_text(out / "report.md", to_markdown(report))
    write_json(out / "metrics.json", headline(report))
    return report


def mean_sem(values: list[float]) -> tuple[float, float]:
    """Mean and standard error (sample std with ddof=1 over sqrt(n); 0.0 for one value).

    >>> mean_sem([10.0, 20.0, 30.0])
    (20.0, 5.773502691896258)
    >>> mean_sem([50.0])
    (50.0, 0.0)
    """
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, 0.0
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, math.sqrt(var / n)


def aggregate(
    records: list[dict[str, Any]],
    agents: list[str],
    competition_ids: list[str],
    seeds: list[int],
    set_name: str,
    complexity: dict[str, str],
    leaks: dict[str, list[str]] | None = None,
) -> dict[str, Any]:
    """Build the report for every agent over one competition set (and its complexity groups).

    ``leaks`` names, per competition, the known leaks its public data keeps (from the leak audit); those
    competitions are marked wherever their scores appear.
    """
    by_cell = {(r["agent"], r["competition_id"], r["seed"]): r for r in records}
    groups = {set_name: competition_ids}
    for level in sorted(set(complexity[c] for c in competition_ids)):
        members = [c for c in competition_ids if complexity[c] == level]
        if level != set_name and members != competition_ids:
            groups[level] = members
    report: dict[str, Any] = {
        "competition_set": set_name,
        "competitions": competition_ids,
        "seeds": seeds,
        "sem": "sample standard deviation (ddof=1) / sqrt(number of complete seeds)",
        "leaks": {c: v for c, v in (leaks or {}).items() if v and c in competition_ids},
        "agents": {},
    }
    for agent in agents:
        entry: dict[str, Any] = {"groups": {}, "status_counts": {}, "per_competition": {}}
        for name, members in groups.items():
            entry["groups"][name] = _group_summary(by_cell, agent, members, seeds)
        agent_records = [
            by_cell[(agent, c, s)] for c in competition_ids for s in seeds if (agent, c, s) in by_cell
        ]
        counts = Counter(r["status"] for r in agent_records)
        entry["status_counts"] = {status: counts.get(status, 0) for status in STATUSES}
        for cid in competition_ids:
            entry["per_competition"][cid] = [_cell_row(by_cell.get((agent, cid, s)), s) for s in seeds]
        report["agents"][agent] = entry
    return report


def headline(report: dict[str, Any]) -> dict[str, Any]:
    """Pick the few numbers ``dvc metrics show`` displays: any-medal % mean and SEM per agent and group."""
    out: dict[str, Any] = {}
    for agent, entry in report["agents"].items():
        for group, summary in entry["groups"].items():
            out.setdefault(agent, {})[group] = {
                "any_medal_pct": summary["metrics"]["any_medal"]["mean"],
                "any_medal_pct_sem": summary["metrics"]["any_medal"]["sem"],
                "complete_seeds": summary["complete_seeds"],
            }
    return out


def to_markdown(report: dict[str, Any]) -> str:
    """Render a human-readable report: headline table, per-status counts, per-competition table."""
    lines = [
        f"# Report: competition set `{report['competition_set']}`",
        "",
        f"Seeds: {report['seeds']}. Any-medal % is the mean ± SEM over complete seeds; "
        f"SEM = {report['sem']}.",
        "",
        "| agent | group | competitions | complete seeds | any medal % | gold % | above median % | valid % |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for agent, entry in report["agents"].items():
        for group, s in entry["groups"].items():
            m = s["metrics"]
            lines.append(
                f"| {agent} | {group} | {s['competitions']} | {len(s['complete_seeds'])} | "
                f"{_pm(m['any_medal'])} | {_pm(m['gold_medal'])} | {_pm(m['above_median'])} | "
                f"{_pm(m['valid_submission'])} |"
            )
            if s["incomplete_seeds"]:
                lines.append(f"|  | (incomplete seeds left out: {s['incomplete_seeds']}) | | | | | | |")
    lines += [
        "",
        "## Cells by status",
        "",
        "| agent | " + " | ".join(STATUSES) + " |",
        "|---|" + "---|" * len(STATUSES),
    ]
    for agent, entry in report["agents"].items():
        lines.append(f"| {agent} | " + " | ".join(str(entry["status_counts"][s]) for s in STATUSES) + " |")
    lines += [
        "",
        "## Per competition",
        "",
        "| agent | competition | seed | status | score | gold | silver | bronze | median | medal |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    leaks = report.get("leaks", {})
    for agent, entry in report["agents"].items():
        for cid, rows in entry["per_competition"].items():
            name = f"{cid} (known leak)" if cid in leaks else cid
            for row in rows:
                lines.append(
                    f"| {agent} | {name} | {row['seed']} | {row['status']} | {_num(row['score'])} | "
                    f"{_num(row['gold_threshold'])} | {_num(row['silver_threshold'])} | "
                    f"{_num(row['bronze_threshold'])} | {_num(row['median_threshold'])} | "
                    f"{row['medal']} |"
                )
    if leaks:
        lines += ["", "## Known leaks", "", "Public data of these competitions can reveal answers:", ""]
        lines += [f"- `{cid}`: " + "; ".join(notes) for cid, notes in leaks.items()]
    return "\n".join(lines) + "\n"


def load_records(paths: list[Path]) -> list[dict[str, Any]]:
    """Read grading records; a missing file is simply a missing cell."""
    return [json.loads(p.read_text(encoding="utf-8")) for p in paths if p.is_file()]


def _group_summary(by_cell: dict, agent: str, members: list[str], seeds: list[int]) -> dict[str, Any]:
    complete = [s for s in seeds if all((agent, c, s) in by_cell for c in members)]
    metrics = {}
    for name, flag in PERCENTAGES.items():
        per_seed = [
            100.0 * sum(bool(flag(by_cell[(agent, c, s)])) for c in members) / len(members) for s in complete
        ]
        mean, sem = mean_sem(per_seed) if per_seed else (None, None)
        metrics[name] = {"mean": mean, "sem": sem, "per_seed": per_seed}
    return {
        "competitions": len(members),
        "complete_seeds": complete,
        "incomplete_seeds": [s for s in seeds if s not in complete],
        "metrics": metrics,
    }


def _cell_row(record: dict[str, Any] | None, seed: int) -> dict[str, Any]:
    if record is None:
        return {
            "seed": seed,
            "status": "missing",
            "score": None,
            "gold_threshold": None,
            "silver_threshold": None,
            "bronze_threshold": None,
            "median_threshold": None,
            "medal": "",
            "reason": "",
        }
    medal = next((m for m in ("gold", "silver", "bronze") if record.get(f"{m}_medal")), "")
    keys = (
        "status",
        "score",
        "gold_threshold",
        "silver_threshold",
        "bronze_threshold",
        "median_threshold",
        "reason",
    )
    return {"seed": seed, "medal": medal, **{k: record.get(k) for k in keys}}


def _pm(metric: dict[str, Any]) -> str:
    return "n/a" if metric["mean"] is None else f"{metric['mean']:.1f} ± {metric['sem']:.1f}"


def _num(value: Any) -> str:
    return "" if value is None else f"{value:.5g}"
