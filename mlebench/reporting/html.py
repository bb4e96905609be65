"""``report.html``: one self-contained page (inline CSS and SVG, no script, nothing fetched when viewed).

Rendered from the report (``report.json``'s content) with the jinja2 template ``report.html.j2`` beside
this module and the charts of :mod:`mlebench.reporting.charts`. The any-time section draws a chart only
when snapshot records exist; otherwise it says there are none.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2

from mlebench.reporting.charts import CHARTS, SCALE
from mlebench.reporting.markdown import texts_line, threshold_line
from mlebench.reporting.records import STATUSES
from mlebench.reporting.stats import format_pm, leaderboard_row

TEMPLATE = "report.html.j2"
LINEAGE_KEYS = (
    "public_sha256",
    "private_sha256",
    "submission_sha256",
    "agent_sha256",
    "config_sha256",
    "grader_sha256",
    "competition_sha256",
)


def to_html(report: dict[str, Any]) -> str:
    """Render the whole page for ``report``."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(Path(__file__).parent),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )
    env.filters["pm"] = format_pm
    env.filters["num"] = _num
    env.filters["short"] = lambda h: (h or "")[:12]
    charts = {name: draw(report) for name, draw in CHARTS.items() if name != "anytime" or report["anytime"]}
    return env.get_template(TEMPLATE).render(
        report=report,
        charts=charts,
        groups=list(next(iter(report["agents"].values()))["groups"]) if report["agents"] else [],
        statuses=[*STATUSES, "missing"],
        scale=SCALE,
        lineage_keys=LINEAGE_KEYS,
        rows=leaderboard_rows(report),
        threshold_line=threshold_line(report),
        texts_line=texts_line(report).replace("**", ""),
        padded=any(s["padded_entries"] for e in report["agents"].values() for s in e["groups"].values()),
    )


def leaderboard_rows(report: dict[str, Any]) -> dict[str, str]:
    """Each agent's leaderboard row (Low / Medium / High / All any-medal %, mean ± SEM)."""
    return {agent: leaderboard_row(entry["groups"]) for agent, entry in report["agents"].items()}


def _num(value: Any) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        return f"{value:.5g}"
    return str(value)
