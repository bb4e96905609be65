"""``report.md``: the report as Markdown tables (headline, leaderboard row, statuses, comparisons, cells)."""

from __future__ import annotations

from typing import Any

from mlebench.reporting.anytime import markdown_lines as anytime_lines
from mlebench.reporting.records import STATUSES
from mlebench.reporting.stats import format_pm, leaderboard_row


def to_markdown(report: dict[str, Any]) -> str:
    """Render a human-readable report: headline table, per-status counts, per-competition table."""
    lines = [
        f"# Report: competition set `{report['competition_set']}`",
        "",
        f"Seeds: {report['seeds']}. Percentages are the mean ± SEM over seeds; SEM = {report['sem']}. "
        f"Method: {report['method']}.",
        "",
        "| agent | network | group | competitions | seeds | any medal % | gold % | above median % "
        "| valid % |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    footnote = False
    for agent, entry in report["agents"].items():
        for group, s in entry["groups"].items():
            m = s["metrics"]
            mark = " †" if s["padded_entries"] else ""
            footnote |= bool(mark)
            lines.append(
                f"| {agent} | {entry.get('network', 'unrecorded')} | {group}{mark} | "
                f"{_coverage(report, group, s)} | {s['seeds']} | "
                f"{format_pm(m['any_medal'])} | {format_pm(m['gold_medal'])} | "
                f"{format_pm(m['above_median'])} | {format_pm(m['valid_submission'])} |"
            )
            if s["incomplete_seeds"]:
                lines.append(f"|  | | (incomplete seeds: {s['incomplete_seeds']}) | | | | | | |")
    if footnote:
        lines += ["", "† computed by padding incomplete seeds with failing scores."]
    thresholds = threshold_line(report)
    lines += (["", thresholds] if thresholds else []) + ["", texts_line(report)]
    lines += ["", f"Headline: {report.get('headline_rule', '')}."]
    lines += ["", "Leaderboard row (any medal %, mean ± SEM):", ""]
    lines += [
        f"- {agent} (network: {entry.get('network', 'unrecorded')}): {leaderboard_row(entry['groups'])}"
        for agent, entry in report["agents"].items()
    ]
    lines += ["", NETWORK_NOTE]
    lines += (
        _as_scored(report)
        + _integrity(report)
        + _egress(report)
        + process_lines(report)
        + _disclosures(report)
        + _usage(report)
    )
    lines += _statuses(report) + _comparisons(report) + _cells(report)
    lines += _mode_differences(report)
    lines += ["", *anytime_lines(report)]
    leaks = report.get("leaks", {})
    if leaks:
        lines += ["", "## Known leaks", "", "Public data of these competitions can reveal answers:", ""]
        lines += [f"- `{cid}`: " + "; ".join(notes) for cid, notes in leaks.items()]
    return "\n".join(lines) + "\n"


NETWORK_NOTE = (
    "Network: the policy each agent's headline cells ran under (`none`: no network; `llm`: only its model "
    "endpoints; `egress`: any public host, through a logging proxy). Results made under different policies "
    "are not comparable; a `mixed` entry says which policies it combines."
)


def threshold_line(report: dict[str, Any]) -> str:
    """Say per group how many of its competitions' medal thresholds are verified (empty: not known)."""
    parts = []
    for group, info in report.get("groups", {}).items():
        if "thresholds" not in info:
            continue
        states = info["thresholds"]
        n = sum(states.values())
        own = states.get("leaderboard", 0)
        text = f"{group}: {states.get('verified', 0)} of {n - own} verified" if n > own else f"{group}: none"
        parts.append(text + (f" ({own} from our own reference leaderboards)" if own else ""))
    return "Medal thresholds verified against v1's leaderboards: " + "; ".join(parts) + "." if parts else ""


def texts_line(report: dict[str, Any]) -> str:
    """Say which task texts the agents read, and whether that makes results comparable with v1's."""
    texts = report.get("task_texts", {"cells": {}, "comparable_with_published_leaderboard": False})
    cells = ", ".join(f"{source} in {n}" for source, n in texts["cells"].items()) or "no graded cells"
    if texts["comparable_with_published_leaderboard"]:
        return f"Task texts: v1's (checked against their git blob ids): {cells} cells."
    if "mlebench-obfuscated" in texts["cells"]:
        return (
            f"Task texts: {cells} cells. **Not comparable with the published MLE-bench leaderboard**: agents "
            "that read v1's obfuscated texts (`descriptions.obfuscate`) ran v1's contamination setting, and "
            "any that read our own texts were not given v1's task statements."
        )
    return (
        f"Task texts: {cells} cells. **Not comparable with the published MLE-bench leaderboard**: agents "
        "that read our own texts (`descriptions.source: ours`) were not given v1's task statements."
    )


def _coverage(report: dict[str, Any], group: str, summary: dict[str, Any]) -> str:
    declared = report.get("groups", {}).get(group, {}).get("declared", summary["competitions"])
    n = summary["competitions"]
    return str(n) if declared == n else f"{n} of {declared}"


def _as_scored(report: dict[str, Any]) -> list[str]:
    lines = [
        "",
        "## Headline and as scored",
        "",
        "As scored counts every graded cell as graded, flagged and unisolated ones included: a quick look, "
        "never the headline.",
        "",
        "| agent | group | any medal % (headline) | any medal % (as scored) |",
        "|---|---|---|---|",
    ]
    for agent, entry in report["agents"].items():
        for group, s in entry["groups"].items():
            scored = entry.get("as_scored", {}).get(group, s)
            lines.append(
                f"| {agent} | {group} | {format_pm(s['metrics']['any_medal'])} | "
                f"{format_pm(scored['metrics']['any_medal'])} |"
            )
    return lines


def _integrity(report: dict[str, Any]) -> list[str]:
    lines = ["", "## Integrity flags", ""]
    flags = report.get("integrity", [])
    if flags:
        lines += ["| cell | check | evidence |", "|---|---|---|"]
        for f in flags:
            evidence = "; ".join(f["evidence"]).replace("|", "\\|") or "(none recorded)"
            cell = f"{f['agent']}/{f['competition_id']}/seed {f['seed']}"
            lines.append(f"| {cell} | {f['check']} | {evidence} |")
    else:
        lines.append("No cell is flagged.")
    counts: dict[str, int] = {}
    for entry in report["agents"].values():
        for verdict, n in entry.get("verdict_counts", {}).items():
            counts[verdict] = counts.get(verdict, 0) + n
    if counts:
        lines += ["", "Verdicts: " + ", ".join(f"{v} {n}" for v, n in sorted(counts.items())) + "."]
    excluded = report.get("excluded", [])
    if excluded:
        lines += ["", f"Left out of the headline, unisolated ({len(excluded)} cells):", ""]
        lines += [f"- {e['agent']}/{e['competition_id']}/seed {e['seed']}: {e['reason']}" for e in excluded]
    return lines


def _egress(report: dict[str, Any]) -> list[str]:
    """Return what each agent's proxied cells fetched (networks ``egress``, ``llm``); none went out: empty."""
    agents = {a: e["egress"] for a, e in report["agents"].items() if e.get("egress")}
    if not agents:
        return []
    lines = [
        "",
        "## Egress",
        "",
        "What each agent's cells fetched through their proxies (TLS inspected: every request with its URL; "
        "refused: a forbidden source or a destination the policy does not allow; uninspected: a connection "
        "the proxy could not inspect, refused).",
        "",
        "| agent | cells | requests | bytes | refused | uninspected | hosts (busiest by bytes) |",
        "|---|---|---|---|---|---|---|",
    ]
    for agent, e in agents.items():
        hosts = ", ".join(
            f"{h} ({c['bytes']} B, {c['requests']} req"
            + (f", {c['refused']} refused)" if c["refused"] else ")")
            for h, c in e["hosts"].items()
        )
        more = f" and {e['host_count'] - len(e['hosts'])} more" if e["host_count"] > len(e["hosts"]) else ""
        lines.append(
            f"| {agent} | {e['cells']} | {e['requests']} | {e['bytes']} | {e['refused']} "
            f"| {e['uninspected']} "
            f"| {(hosts + more).replace('|', chr(92) + '|')} |"
        )
    return lines


def process_lines(report: dict[str, Any]) -> list[str]:
    """Return the process section: does each agent's kept code reproduce its submission, what is it like.

    Empty when the plan reproduces no cell (``reproduce.enabled`` off).
    """
    process = report.get("process")
    if process is None:
        return []
    lines = [
        "",
        "## Process: reproduction and code",
        "",
        "Each reproduced cell's kept code was re-run by its declared command (fresh container, same image "
        "and "
        "hardware, no network) and graded as the original. Headline: "
        + (
            "a medal counts only where the code reproduced it."
            if process.get("headline") == "reproduced"
            else "reproduction is reported, not counted."
        ),
        "",
        "| agent | cells | reproduced | differs | failed | not declared | reproduced % | same file "
        "| max \\|delta\\| | re-run s | run s |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for agent, p in process["agents"].items():
        v = p["verdicts"]
        lines.append(
            f"| {agent} | {p['cells']} | {v['reproduced']} | {v['differs']} | {v['failed']} | "
            f"{v['not_declared']} | {_num(p['share_reproduced'])} | {p.get('identical', 0)} | "
            f"{_num(p['delta_abs_max'])} | "
            f"{p['seconds']} | {p['run_seconds']} |"
        )
    lines += [
        "",
        "Code (reported, never gating; ruff findings per 1,000 Python lines):",
        "",
        "| agent | median lines | median files | ruff / kLOC | ruff | says how to run | README |",
        "|---|---|---|---|---|---|---|",
    ]
    for agent, p in process["agents"].items():
        q = p["code_quality"]
        lines.append(
            f"| {agent} | {_num(q['median_lines'])} | {_num(q['median_files'])} | "
            f"{_num(q['ruff_findings_per_kloc'])} | {', '.join(q['ruff_versions']) or 'n/a'} | "
            f"{q['says_how_to_run']}/{p['cells']} | {q['documented']}/{p['cells']} |"
        )
    lines += [
        "",
        "| cell | verdict | status | original | re-run | delta | same file | re-run s | run s "
        "| declared by | inputs |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for c in process["cells"]:
        lines.append(
            f"| {c['agent']}/{c['competition_id']}/seed {c['seed']} | {c['verdict']} | "
            f"{c['status'] or '-'} | "
            f"{_num(c['original_score'])} | {_num(c['score'])} | {_num(c['delta'])} | "
            f"{_same(c.get('identical'))} | {_num(c['seconds'])} | "
            f"{_num(c['run_seconds'])} | {c['declared_by'] or '-'} | "
            f"{(c.get('note') or '-').replace('|', '/')} |"
        )
    return lines


def _same(identical: bool | None) -> str:
    return "" if identical is None else ("yes" if identical else "no")


def _disclosures(report: dict[str, Any]) -> list[str]:
    lines = ["", "## Disclosures", "", "| agent | models | uses test feedback | web search |"]
    lines.append("|---|---|---|---|")
    for agent, entry in report["agents"].items():
        for d in entry.get("disclosures") or [{}]:
            models = (", ".join(d["models"]) or "none") if "models" in d else "undeclared"
            lines.append(
                f"| {agent} | {models} | {d.get('uses_test_feedback', 'undeclared')} | "
                f"{d.get('web_search', 'undeclared')} |"
            )
    return lines


def _usage(report: dict[str, Any]) -> list[str]:
    usage = {agent: entry.get("usage") or {} for agent, entry in report["agents"].items()}
    if not any(u.get("cells") or u.get("problems") for u in usage.values()):
        return []
    lines = [
        "",
        "## Model usage",
        "",
        "| agent | cells | requests | prompt tokens | completion tokens | cost |",
    ]
    lines.append("|---|---|---|---|---|---|")
    for agent, u in usage.items():
        if u.get("cells"):
            cost = (
                "" if u["cost"] is None else f"{u['cost']:.4f} {u['currency']} ({u['priced_cells']} priced)"
            )
            counts = " | ".join(
                str(u[k]) for k in ("cells", "requests", "prompt_tokens", "completion_tokens")
            )
            lines.append(f"| {agent} | {counts} | {cost} |")
    notes = [
        f"- {a}: {u['problems']} cell(s) with a malformed usage file, not counted"
        for a, u in usage.items()
        if u.get("problems")
    ]
    return lines + ([""] + notes if notes else [])


def _statuses(report: dict[str, Any]) -> list[str]:
    names = [*STATUSES, "missing"]
    lines = [
        "",
        "## Cells by status",
        "",
        "| agent | " + " | ".join(names) + " |",
        "|---|" + "---|" * len(names),
    ]
    for agent, entry in report["agents"].items():
        counts = entry["status_counts"]
        lines.append(f"| {agent} | " + " | ".join(str(counts.get(s, 0)) for s in names) + " |")
    return lines


def _comparisons(report: dict[str, Any]) -> list[str]:
    if not report.get("comparisons"):
        return []
    lines = [
        "",
        "## Paired comparisons (any medal, percentage points, paired by competition and seed)",
        "",
        "| a − b | pairs | difference | 95% CI (bootstrap) | p (permutation) |",
        "|---|---|---|---|---|",
    ]
    for c in report["comparisons"]:
        if c["difference_pct"] is None:
            lines.append(f"| {c['a']} − {c['b']} | 0 | n/a | n/a | n/a |")
            continue
        low, high = c["ci95"]
        lines.append(
            f"| {c['a']} − {c['b']} | {c['pairs']} | {c['difference_pct']:+.1f} | "
            f"[{low:+.1f}, {high:+.1f}] | {c['p_value']:.3g} |"
        )
    return lines


def _cells(report: dict[str, Any]) -> list[str]:
    lines = [
        "",
        "## Per competition",
        "",
        "| agent | competition | seed | status | score | gold | silver | bronze | median | medal | "
        "isolation | verdict |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    leaks = report.get("leaks", {})
    for agent, entry in report["agents"].items():
        for cid, rows in entry["per_competition"].items():
            name = f"{cid} (known leak)" if cid in leaks else cid
            for row in rows:
                status = f"{row['status']} (modes differ)" if row.get("mode_verdicts") else row["status"]
                lines.append(
                    f"| {agent} | {name} | {row['seed']} | {status} | {_num(row['score'])} | "
                    f"{_num(row['gold_threshold'])} | {_num(row['silver_threshold'])} | "
                    f"{_num(row['bronze_threshold'])} | {_num(row['median_threshold'])} | "
                    f"{row['medal']} | {_isolation(row)} | {row.get('verdict') or ''} |"
                )
    return lines


def _isolation(row: dict[str, Any]) -> str:
    """Return the row's isolation, and the agent's kernel where it was a user-space one (gVisor).

    >>> _isolation({"isolation": "isolated", "lineage": {"agent_kernel": "gVisor user-space kernel (runsc)"}})
    'isolated, gVisor user-space kernel (runsc)'
    >>> _isolation({"isolation": "isolated", "lineage": {}}), _isolation({"isolation": None})
    ('isolated', '')
    """
    kernel = (row.get("lineage") or {}).get("agent_kernel")
    return f"{row.get('isolation') or ''}, {kernel}" if kernel else row.get("isolation") or ""


def _mode_differences(report: dict[str, Any]) -> list[str]:
    """Cells where ``grading.mode: v1`` and ``strict`` disagree: both verdicts, side by side."""
    rows = report.get("mode_differences") or []
    modes = ", ".join(report.get("grading_modes") or [])
    if not rows:
        return ["", f"Grading mode: {modes or 'none recorded'}; no cell differs between v1 and strict."]
    lines = [
        "",
        "## Grading-mode differences",
        "",
        f"Grading mode: {modes}. In these cells v1's pairing (see each competition's known issues of kind "
        "`v1_mode`) and strict grading disagree; the record keeps both.",
        "",
        "| agent | competition | seed | mode used | v1 | strict |",
        "|---|---|---|---|---|---|",
    ]
    for d in rows:
        lines.append(
            f"| {d['agent']} | {d['competition_id']} | {d['seed']} | {d['mode']} | "
            f"{_verdict(d['v1'])} | {_verdict(d['strict'])} |"
        )
    return lines


def _verdict(v: dict[str, Any]) -> str:
    if v["status"] == "ok":
        return f"ok {_num(v['score'])}"
    return f"{v['status']}: {v['reason']}".replace("|", "\\|")[:200]


def _num(value: Any) -> str:
    return "" if value is None else f"{value:.5g}"
