"""Aggregate grading records into the report: any-medal % per split as mean ± SEM over seeds, and more.

The figures per split follow MLE-bench's aggregation exactly (:mod:`mlebench.reporting.stats`): seed *i*
of a split is the *i*-th graded entry (in seed order) of each of its competitions; a percentage is
``100 · count / T`` over the split's ``T`` competitions; across seeds the mean and SEM (ddof 1). Without
padding a split takes as many seeds as its least-graded competition has; with ``report.pad_missing`` as
many as its most-graded one, absent entries failing. The report's groups are the plan's competition set
and each leaderboard split (low, medium, high, all, embedded) its competitions cover.

The headline (each agent's ``groups``, the leaderboard row, ``metrics.json``, ``headline.csv``) counts
cells as :func:`mlebench.reporting.verdicts.counted` says: unisolated cells are left out, flagged cells
count as no medal unless ``report.count_flagged``. ``as_scored`` holds the same groups over every graded
cell as scored (flagged and unisolated included): a quick look, never the headline.

``report.json`` holds, besides the groups: status counts, per-competition rows with each cell's lineage,
isolation and integrity verdict, every integrity flag (``integrity``: cell, check, evidence), the cells
left out of the headline (``excluded``), each agent's disclosures, paired comparisons of every two agents
(:mod:`mlebench.reporting.compare`, as scored), known leaks, and any-time curves when snapshot records
exist, with the any-time table (:mod:`mlebench.reporting.anytime`). Each agent's ``usage`` sums its
cells' model usage (:func:`mlebench.reporting.usage.sum_usage`). ``report.md``, ``report.html``
(:mod:`mlebench.reporting.html`) and ``headline.csv`` (the DVC plot) are rendered from it.
"""

from __future__ import annotations

import csv
import io
import itertools
import json
from collections import Counter
from pathlib import Path
from typing import Any

from mlebench.data.audit import known_leaks
from mlebench.reporting.anytime import anytime_table, curve_points
from mlebench.reporting.compare import paired_comparison
from mlebench.reporting.html import to_html
from mlebench.reporting.inputs import ReportData, ReportInputs
from mlebench.reporting.markdown import to_markdown
from mlebench.reporting.records import STATUSES
from mlebench.reporting.reproduction import counted_reproduced, load_reproduction, process_section
from mlebench.reporting.stats import (
    anytime_curves,
    declared_sizes,
    entries_by_competition,
    mean_sem,
    split_figures,
    split_members,
)
from mlebench.reporting.usage import sum_usage
from mlebench.reporting.verdicts import UNCHECKED, counted, egress_fetched, is_isolated, load_verdict
from mlebench_spec.declarations import all_competition_ids, load_competition
from mlebench_spec.files import write_json, write_text
from mlebench_spec.leaderboards import threshold_state
from mlebench_spec.paths import (
    audit_path,
    grade_path,
    integrity_path,
    report_dir,
    reproduction_dir,
)

__all__ = [
    "ReportData",
    "ReportInputs",
    "aggregate",
    "headline",
    "headline_csv",
    "load_records",
    "mean_sem",
    "task_texts",
    "threshold_state",
    "to_markdown",
    "write_report",
]


def summary(report: dict[str, Any]) -> str:
    """Return the report's Markdown up to the cells by status, which the stage and the CLI print."""
    return to_markdown(report).split("## Cells by status")[0]


def write_report(inputs: ReportInputs, root: Path | None = None) -> dict[str, Any]:
    """Aggregate every grading record of the plan into ``report/``: json, md, html, metrics, headline.csv.

    With ``inputs.integrity`` (the plan has an integrity stage, so its files are the report's deps) each
    cell's integrity.json gives its verdict; without, every cell is ``unchecked``. With ``inputs.reproduce``
    (the plan has reproduce stages: ``reproduce.headline``, ``all`` or ``reproduced``) each reproduced cell's
    reproduction.json is read into the process section; empty: none is. The report stage and
    ``mlebench report`` call it with :meth:`ReportInputs.planned`.
    """
    agents, ids, seeds = list(inputs.agents), list(inputs.competitions), list(inputs.seeds)
    integrity, reproduce = inputs.integrity, inputs.reproduce
    records = load_records([grade_path(a, c, s, root) for a in agents for c in ids for s in seeds])
    verdicts = {
        (a, c, s): load_verdict(integrity_path(a, c, s, root))
        for a in agents
        for c in ids
        for s in seeds
        if integrity
    }
    reproductions = {
        (a, c, s): found.to_json()
        for a in agents
        for c in ids
        for s in seeds
        if reproduce and (found := load_reproduction(reproduction_dir(a, c, s, root))) is not None
    }
    complexity = {c: load_competition(c, root).complexity for c in ids}
    leaks = {c: known_leaks(json.loads(audit_path(c, root).read_text(encoding="utf-8"))) for c in ids}
    declared = declared_sizes(load_competition(c, root).complexity for c in all_competition_ids(root))
    thresholds = {c: threshold_state(load_competition(c, root)) for c in ids}
    report = aggregate(
        ReportData(
            records,
            agents,
            ids,
            seeds,
            inputs.competition_set,
            complexity,
            leaks=leaks,
            pad_missing=inputs.pad_missing,
            declared=declared,
            thresholds=thresholds,
            verdicts=verdicts,
            count_flagged=inputs.count_flagged,
            reproductions=reproductions if reproduce else None,
            reproduced_only=reproduce == "reproduced",
        )
    )
    out = report_dir(root)
    write_json(out / "report.json", report)
    write_text(out / "report.md", to_markdown(report))
    write_text(out / "report.html", to_html(report))
    write_json(out / "metrics.json", headline(report))
    write_text(out / "headline.csv", headline_csv(report))
    return report


def aggregate(data: ReportData) -> dict[str, Any]:
    """Build the report for every agent over one competition set and the leaderboard splits it covers.

    ``leaks`` names, per competition, the known leaks its public data keeps (from the leak audit); those
    competitions are marked wherever their scores appear. Cells whose grading modes disagree (a
    record's ``mode_verdicts``: v1's pairing scores what strict refuses, or scores it differently) are
    listed under ``mode_differences``; ``grading_modes`` says which modes decided the records (a record
    from before the setting existed counts as ``strict``). ``declared`` is how many competitions each split
    has in all the declarations (its coverage). ``snapshots`` are graded snapshot records (``agent``,
    ``competition_id``, ``seed``, ``elapsed_secs``, ``any_medal``); by default they are read from the
    records' graded ``snapshots`` (:mod:`mlebench.reporting.anytime`), which also gives ``anytime_table``
    (headline cells) and ``anytime_as_scored``: any-medal % mean ± SEM at each mark and at the end.
    ``thresholds`` gives each competition's :func:`threshold_state`; each group counts its members' states.
    The report's ``task_texts`` counts the graded cells whose agent read v1's texts (``mlebench``) or ours.
    ``verdicts`` are the cells' integrity verdicts (:func:`mlebench.reporting.verdicts.load_verdict`;
    absent: unchecked). ``reproductions`` (the plan reproduces cells; None: it does not) are the cells'
    reproduction records: the report's ``process`` section
    (:func:`mlebench.reporting.reproduction.process_section`) and each cell row's ``reproduction``; with
    ``reproduced_only`` (``reproduce.headline: reproduced``) the headline counts a medal only for a cell whose
    code reproduced it.
    """
    records, agents, competition_ids, seeds = data.records, data.agents, data.competition_ids, data.seeds
    complexity, pad_missing, count_flagged = data.complexity, data.pad_missing, data.count_flagged
    reproductions, reproduced_only, thresholds = data.reproductions, data.reproduced_only, data.thresholds
    set_name, leaks, declared, snapshots = data.set_name, data.leaks, data.declared, data.snapshots
    by_cell = {(r["agent"], r["competition_id"], r["seed"]): r for r in records}
    verdicts = data.verdicts or {}
    headline_cells = {
        k: c for k, r in by_cell.items() if (c := counted(r, verdicts.get(k), count_flagged)) is not None
    }
    if reproduced_only:
        again = reproductions or {}
        headline_cells = {k: counted_reproduced(c, again.get(k)) for k, c in headline_cells.items()}
    groups = _groups(set_name, competition_ids, complexity)
    report: dict[str, Any] = {
        "competition_set": set_name,
        "competitions": competition_ids,
        "complexity": {c: complexity[c] for c in competition_ids},
        "seeds": seeds,
        "pad_missing": pad_missing,
        "sem": "sample standard deviation (ddof=1) / sqrt(number of seeds); null for one seed",
        "method": "MLE-bench v1 aggregation: seed i of a split is the i-th graded entry (in seed order) of "
        "each of its competitions; "
        + ("incomplete seeds padded with failing entries" if pad_missing else "only complete seeds"),
        "groups": {
            name: {
                "kind": kind,
                "members": members,
                "declared": (declared or {}).get(name, len(members)),
                **({"thresholds": dict(Counter(thresholds[c] for c in members))} if thresholds else {}),
            }
            for name, (kind, members) in groups.items()
        },
        "leaks": {c: v for c, v in (leaks or {}).items() if v and c in competition_ids},
        "task_texts": task_texts(records),
        "count_flagged": count_flagged,
        "headline_rule": "isolated cells only; flagged cells "
        + ("count as scored (report.count_flagged)" if count_flagged else "count as no medal")
        + ("; a medal counts only where the agent's code reproduced it" if reproduced_only else ""),
        "integrity": [
            {"agent": k[0], "competition_id": k[1], "seed": k[2], **flag}
            for k in sorted(by_cell)
            for flag in verdicts.get(k, UNCHECKED)["flags"]
        ],
        "excluded": [
            {"agent": k[0], "competition_id": k[1], "seed": k[2], "reason": _excluded(r)}
            for k, r in sorted(by_cell.items())
            if not is_isolated(r)
        ],
        "agents": {},
    }
    for agent in agents:
        entry: dict[str, Any] = {"groups": {}, "as_scored": {}, "status_counts": {}, "per_competition": {}}
        for name, (_, members) in groups.items():
            entry["groups"][name] = _group_summary(headline_cells, agent, members, seeds, pad_missing)
            entry["as_scored"][name] = _group_summary(by_cell, agent, members, seeds, pad_missing)
        agent_records = [
            by_cell[k] for k in itertools.product([agent], competition_ids, seeds) if k in by_cell
        ]
        counts = Counter(r["status"] for r in agent_records)
        entry["status_counts"] = {status: counts.get(status, 0) for status in STATUSES}
        entry["status_counts"]["missing"] = len(competition_ids) * len(seeds) - len(agent_records)
        keys = [(r["agent"], r["competition_id"], r["seed"]) for r in agent_records]
        entry["verdict_counts"] = dict(Counter(verdicts.get(k, UNCHECKED)["verdict"] for k in keys))
        entry["disclosures"] = _distinct([r.get("disclosures") or {} for r in agent_records])
        entry["network"] = network_policy([c for k, c in headline_cells.items() if k in set(keys)])
        entry["usage"] = sum_usage(agent_records)
        fetched = egress_fetched([verdicts.get(k, UNCHECKED) for k in keys])
        if fetched is not None:
            entry["egress"] = fetched
        for cid in competition_ids:
            entry["per_competition"][cid] = [
                _cell_row(
                    by_cell.get((agent, cid, s)),
                    s,
                    verdicts.get((agent, cid, s), UNCHECKED),
                    (reproductions or {}).get((agent, cid, s)),
                )
                for s in seeds
            ]
        report["agents"][agent] = entry
    report["comparisons"] = [
        paired_comparison(by_cell, a, b, competition_ids, seeds) for a, b in itertools.combinations(agents, 2)
    ]
    report["grading_modes"] = sorted({str(r.get("grading_mode", "strict")) for r in by_cell.values()})
    report["mode_differences"] = [
        {"agent": a, "competition_id": c, "seed": s, "mode": r.get("grading_mode"), **r["mode_verdicts"]}
        for (a, c, s), r in sorted(by_cell.items())
        if r.get("mode_verdicts") and a in agents and c in competition_ids and s in seeds
    ]
    points = snapshots or curve_points([r for r in by_cell.values() if r["agent"] in agents])
    report["anytime"] = anytime_curves(points, agents, competition_ids, seeds)
    if reproductions is not None:
        report["process"] = {
            **process_section(reproductions, agents),
            "headline": "reproduced" if reproduced_only else "all",
        }
    members = {name: m for name, (_, m) in groups.items()}
    table = (by_cell, verdicts, agents, members, seeds, pad_missing, count_flagged)
    report["anytime_table"] = anytime_table(*table)
    report["anytime_as_scored"] = anytime_table(*table, as_scored=True)
    return report


def network_policy(records: list[dict[str, Any]]) -> str:
    """Name the network policy a headline's cells ran under, or say that it mixes several.

    From each grading record's ``lineage.agent_network`` (``none``, ``llm``, ``egress``; ``unrecorded``
    when the runner did not say). One policy is its name; several are ``mixed: <policy> (<n> cells), ...``,
    so a headline never mixes policies without saying so.

    >>> network_policy([{"lineage": {"agent_network": "egress"}}] * 2)
    'egress'
    >>> network_policy([{"lineage": {"agent_network": "egress"}}, {"lineage": {"agent_network": "none"}}])
    'mixed: egress (1 cells), none (1 cells)'
    >>> network_policy([])
    'no cells'
    """
    counts = Counter(str((r.get("lineage") or {}).get("agent_network") or "unrecorded") for r in records)
    if len(counts) <= 1:
        return next(iter(counts), "no cells")
    return "mixed: " + ", ".join(f"{policy} ({n} cells)" for policy, n in sorted(counts.items()))


def headline(report: dict[str, Any]) -> dict[str, Any]:
    """Pick the few numbers ``dvc metrics show`` displays: any-medal % mean and SEM per agent and group.

    ``any_medal_pct`` is the headline; ``any_medal_pct_as_scored`` counts every graded cell as scored;
    ``network`` is the policy its cells ran under (:func:`network_policy`).
    """
    out: dict[str, Any] = {}
    for agent, entry in report["agents"].items():
        for group, summary in entry["groups"].items():
            out.setdefault(agent, {})[group] = {
                "network": entry.get("network", "unrecorded"),
                "any_medal_pct": summary["metrics"]["any_medal"]["mean"],
                "any_medal_pct_sem": summary["metrics"]["any_medal"]["sem"],
                "any_medal_pct_as_scored": entry["as_scored"][group]["metrics"]["any_medal"]["mean"],
                "seeds": summary["seeds"],
                "complete_seeds": summary["complete_seeds"],
            }
    return out


def headline_csv(report: dict[str, Any]) -> str:
    """Write the headline series for ``dvc plots``: one row per agent and group, any-medal % with its SEM."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    writer.writerow(["agent", "group", "series", "any_medal_pct", "any_medal_pct_sem", "seeds"])
    for agent, entry in report["agents"].items():
        for group, summary in entry["groups"].items():
            metric = summary["metrics"]["any_medal"]
            writer.writerow(
                [
                    agent,
                    group,
                    f"{agent} · {group}",
                    _cell(metric["mean"]),
                    _cell(metric["sem"]),
                    summary["seeds"],
                ]
            )
    return buf.getvalue()


def task_texts(records: list[dict[str, Any]]) -> dict[str, Any]:
    """Count the cells by the texts their agent read; only v1's texts make results comparable with v1's.

    A record without ``lineage.texts`` predates the setting and was made with our own texts. v1's obfuscated
    texts (``descriptions.obfuscate``) count as ``mlebench-obfuscated``: the contamination study's setting,
    not the published leaderboard's.
    """

    def label(record: dict[str, Any]) -> str:
        texts = (record.get("lineage") or {}).get("texts") or {}
        return texts.get("source", "ours") + ("-obfuscated" if texts.get("obfuscated") else "")

    counts = Counter(label(r) for r in records)
    return {
        "cells": dict(sorted(counts.items())),
        "comparable_with_published_leaderboard": bool(records) and set(counts) == {"mlebench"},
    }


def load_records(paths: list[Path]) -> list[dict[str, Any]]:
    """Read grading records; a missing file is simply a missing cell."""
    return [json.loads(p.read_text(encoding="utf-8")) for p in paths if p.is_file()]


def _groups(set_name: str, ids: list[str], complexity: dict[str, str]) -> dict[str, tuple[str, list[str]]]:
    """Return the plan's set (under its own name), then each leaderboard split it covers.

    A set that *is* a split (``embedded``, ``low``, ``all``) is listed once, as the split; a set that only
    shares a split's name is renamed ``<name> (set)``.
    """
    splits = split_members(complexity, ids)
    same = splits.get(set_name) == sorted(ids)
    name = set_name if set_name not in splits or same else f"{set_name} (set)"
    groups: dict[str, tuple[str, list[str]]] = {} if same else {name: ("set", ids)}
    groups.update({split: ("split", members) for split, members in splits.items()})
    return groups


def _group_summary(
    by_cell: dict, agent: str, members: list[str], seeds: list[int], pad_missing: bool
) -> dict[str, Any]:
    entries = entries_by_competition(
        [r for k, r in by_cell.items() if k[0] == agent and k[2] in seeds], agent, members
    )
    figures = split_figures(entries, members, pad_missing)
    complete = [s for s in seeds if all((agent, c, s) in by_cell for c in members)]
    return {
        "competitions": len(members),
        "complete_seeds": complete,
        "incomplete_seeds": [s for s in seeds if s not in complete],
        **figures,
    }


_ROW_KEYS = (
    "status",
    "score",
    "gold_threshold",
    "silver_threshold",
    "bronze_threshold",
    "median_threshold",
    "is_lower_better",
    "any_medal",
    "valid_submission",
    "reason",
    "runner",
    "competition_version",
    "grading_mode",
    "mode_verdicts",
)


def _cell_row(
    record: dict[str, Any] | None,
    seed: int,
    verdict: dict[str, Any],
    reproduction: dict[str, Any] | None = None,
) -> dict[str, Any]:
    again = (
        {"reproduction": {k: reproduction.get(k) for k in ("verdict", "status", "score", "delta", "seconds")}}
        if reproduction
        else {}
    )
    if record is None:
        row: dict[str, Any] = {"seed": seed, "medal": "", **{k: None for k in _ROW_KEYS}}
        row.update(status="missing", reason="", hardware="", lineage={}, timings={})
        row.update(isolation=None, verdict=None, flags=[])
        return {**row, **again}
    medal = next((m for m in ("gold", "silver", "bronze") if record.get(f"{m}_medal")), "")
    return {
        **again,
        "seed": seed,
        "medal": medal,
        **{k: record.get(k) for k in _ROW_KEYS},
        "isolation": "isolated" if is_isolated(record) else "unisolated",
        "verdict": verdict["verdict"],
        "flags": verdict["flags"],
        "hardware": (record.get("hardware") or {}).get("name", ""),
        "lineage": record.get("lineage") or {},
        "timings": record.get("timings") or {},
    }


def _excluded(record: dict[str, Any]) -> str:
    return record.get("isolation_reason") or "the record does not say the agent ran isolated"


def _distinct(values: list[Any]) -> list[Any]:
    out: list[Any] = []
    for value in values:
        if value not in out:
            out.append(value)
    return out


def _cell(value: float | None) -> str:
    return "" if value is None else f"{value:.6g}"
