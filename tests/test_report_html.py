"""report.html: self-contained, deterministic, and it renders in headless Chromium with every chart drawn."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from browser import open_page
from PIL import Image

from mlebench.reporting.html import to_html
from mlebench.reporting.report import ReportData, aggregate

COMPLEXITY = {"alpha": "low", "beta": "medium", "gamma": "embedded"}
LOWER_IS_BETTER = {"alpha": False, "beta": True, "gamma": False}
THRESHOLDS = {  # gold, silver, bronze, median
    "alpha": (0.9, 0.8, 0.7, 0.5),
    "beta": (1.0, 2.0, 3.0, 4.0),
    "gamma": (10.0, 9.0, 8.0, 5.0),
}


def _record(agent: str, cid: str, seed: int, score: float | None, status: str = "ok") -> dict:
    gold, silver, bronze, median = THRESHOLDS[cid]
    better = (lambda s, t: s <= t) if LOWER_IS_BETTER[cid] else (lambda s, t: s >= t)
    medal = {
        m: score is not None and better(score, t)
        for m, t in (("gold", gold), ("silver", silver), ("bronze", bronze))
    }
    return {
        "agent": agent,
        "competition_id": cid,
        "seed": seed,
        "status": status,
        "reason": "" if status == "ok" else f"a {status}",
        "score": score,
        "gold_threshold": gold,
        "silver_threshold": silver,
        "bronze_threshold": bronze,
        "median_threshold": median,
        "any_medal": any(medal.values()),
        **{f"{m}_medal": v for m, v in medal.items()},
        "above_median": score is not None and better(score, median) and score != median,
        "submission_exists": status != "no_submission",
        "valid_submission": score is not None,
        "is_lower_better": LOWER_IS_BETTER[cid],
        "runner": "docker",
        "isolation": "isolated",
        "hardware": {"name": "cpu"},
        "lineage": {"public_sha256": "ab" * 32, "git_revision": "cd" * 20},
        "timings": {"agent_seconds": 12.5},
    }


RECORDS = [
    _record("dummy", "alpha", 0, 0.3),
    _record("dummy", "alpha", 1, 0.6),
    _record("dummy", "beta", 0, None, "invalid_submission"),
    _record("dummy", "beta", 1, 9.0),
    _record("dummy", "gamma", 0, 4.0),  # gamma seed 1 is missing
    _record("smart", "alpha", 0, 0.95),
    _record("smart", "alpha", 1, 0.85),
    _record("smart", "beta", 0, 2.5),
    _record("smart", "beta", 1, None, "agent_timeout"),
    _record("smart", "gamma", 0, 11.0),
    _record("smart", "gamma", 1, 7.0),
]
SCORED = sum(r["score"] is not None for r in RECORDS)


def _report(snapshots: list[dict] | None = None) -> dict:
    leaks = {"alpha": ["public/test.csv keeps the label"], "beta": [], "gamma": []}
    return aggregate(
        ReportData(
            RECORDS,
            ["dummy", "smart"],
            list(COMPLEXITY),
            [0, 1],
            "mixed",
            COMPLEXITY,
            leaks,
            snapshots=snapshots,
        )
    )


def test_the_page_fetches_nothing_and_is_byte_stable() -> None:
    report = _report()
    html = to_html(report)
    assert html == to_html(report)
    assert "<script" not in html and " src=" not in html and "<link" not in html
    assert "default-src 'none'" in html  # the browser itself refuses any fetch
    assert html.count('<svg class="chart"') == 3  # no snapshots: no any-time chart
    assert "No snapshots" in html and "No cell is flagged" in html
    assert "public/test.csv keeps the label" in html


def test_snapshots_draw_an_anytime_curve_per_agent() -> None:
    snaps = [
        {"agent": a, "competition_id": "alpha", "seed": s, "elapsed_secs": t, "any_medal": m}
        for a, s, t, m in [("dummy", 0, 600, False), ("smart", 0, 300, False), ("smart", 0, 3600, True)]
    ]
    report = _report(snaps)
    assert report["anytime"]["smart"] == {"elapsed_secs": [300, 3600], "any_medal_pct": [0.0, 100 / 6]}
    html = to_html(report)
    assert html.count('<svg class="chart"') == 4
    assert 'id="anytime-dummy"' in html and 'id="anytime-smart"' in html and "No snapshots" not in html


EXPRESSIONS = {
    "charts": "document.querySelectorAll('svg.chart').length",
    "bars": "document.querySelectorAll('svg.chart [id^=\"bar-\"]').length",
    "scores": "document.querySelectorAll('svg.chart [id^=\"score-\"]').length",
    "statuses": "document.querySelectorAll('svg.chart [id^=\"status-\"]').length",
    "sizes": "Array.from(document.querySelectorAll('svg.chart'), s => {"
    " const r = s.getBoundingClientRect(); return [r.width, r.height]; })",
    "anytime": "document.getElementById('anytime').nextElementSibling.textContent",
    "headline": "document.querySelector('#headline + table').rows.length",
}


def test_the_page_renders_in_chromium(tmp_path: Path) -> None:
    report = _report()
    page_file = tmp_path / "report.html"
    page_file.write_text(to_html(report), encoding="utf-8")
    page = open_page(page_file, EXPRESSIONS)
    assert page.errors == [] and page.requests == []
    groups = report["agents"]["dummy"]["groups"]
    assert page.values["charts"] == 3
    assert page.values["bars"] == 2 * len(groups)
    assert page.values["scores"] == SCORED
    segments = sum(1 for e in report["agents"].values() for n in e["status_counts"].values() if n)
    assert page.values["statuses"] == segments
    assert all(w > 200 and h > 80 for w, h in page.values["sizes"]), page.values["sizes"]
    assert "No snapshots" in page.values["anytime"]
    assert page.values["headline"] == 1 + len(report["agents"])
    pixels = np.asarray(Image.open(io.BytesIO(page.screenshot)).convert("RGB")).reshape(-1, 3)
    inked = float((pixels.sum(axis=1) < 700).mean())
    assert inked > 0.02 and len(np.unique(pixels, axis=0)) > 20, "the screenshot looks blank"


@pytest.mark.parametrize("ids", [["alpha"], ["gamma"]])
def test_one_agent_one_competition_still_renders(ids: list[str]) -> None:
    records = [r for r in RECORDS if r["agent"] == "smart" and r["competition_id"] in ids]
    report = aggregate(ReportData(records, ["smart"], ids, [0, 1], "tiny", COMPLEXITY))
    html = to_html(report)
    assert html.count('<svg class="chart"') == 3 and "nothing to compare" in html


def _reproduction(agent: str, cid: str, seed: int, verdict: str, delta: float | None) -> dict:
    graded = next(r for r in RECORDS if (r["agent"], r["competition_id"], r["seed"]) == (agent, cid, seed))
    score = None if verdict in ("failed", "not_declared") else (graded["score"] or 0.0) + (delta or 0.0)
    return {
        "competition_id": cid,
        "agent": agent,
        "seed": seed,
        "verdict": verdict,
        "status": "ok" if score is not None else ("agent_timeout" if verdict == "failed" else ""),
        "score": score,
        "original_score": graded["score"],
        "delta": delta,
        "seconds": 4.0,
        "run_seconds": 12.5,
        "declared_by": "agent config" if verdict != "not_declared" else "",
        "reason": "",
        "identical": verdict == "reproduced" and delta == 0.0,
        "code_quality": {
            "files": 4,
            "lines": 250,
            "python_lines": 200,
            "readme": True,
            "says_how_to_run": True,
            "ruff": {"version": "0.8.0", "findings": 3},
        },
    }


def test_the_process_section_renders_in_chromium(tmp_path: Path) -> None:
    """Issue 42: per agent the share reproduced, deltas, cost and code figures; a `differs` cell is marked."""
    again = {
        ("smart", "alpha", 0): _reproduction("smart", "alpha", 0, "reproduced", 0.0),
        ("smart", "alpha", 1): _reproduction("smart", "alpha", 1, "reproduced", -0.004),
        ("smart", "gamma", 0): _reproduction("smart", "gamma", 0, "differs", -3.0),
        ("dummy", "alpha", 0): _reproduction("dummy", "alpha", 0, "not_declared", None),
        ("dummy", "alpha", 1): _reproduction("dummy", "alpha", 1, "failed", None),
    }
    report = aggregate(
        ReportData(
            RECORDS, ["dummy", "smart"], list(COMPLEXITY), [0, 1], "mixed", COMPLEXITY, reproductions=again
        )
    )
    page_file = tmp_path / "report.html"
    page_file.write_text(to_html(report), encoding="utf-8")
    page = open_page(
        page_file,
        {
            "agents": "[...document.querySelectorAll('#process-agents tr')].slice(1).map(r => "
            "[...r.cells].map(c => c.textContent))",
            "code": "document.querySelector('#process-code').rows.length",
            "cells": "document.querySelector('#process-cells').rows.length",
            "flagged": "[...document.querySelectorAll('#process-cells tr.flag')]"
            ".map(r => r.cells[0].textContent)",
            "visible": "document.getElementById('process').getBoundingClientRect().height > 0",
        },
    )
    assert page.errors == [] and page.requests == []
    rows = {r[0]: r for r in page.values["agents"]}
    # agent, cells, reproduced, differs, failed, not declared, reproduced %, max |delta|, re-run s, run s
    assert rows["smart"][1:8] == ["3", "2", "1", "0", "0", "66.7", "3"]
    assert rows["dummy"][1:7] == ["2", "0", "0", "1", "1", "0"]
    assert rows["smart"][8:] == ["12", "37.5"]
    assert page.values["code"] == 3 and page.values["cells"] == 1 + len(again)
    assert page.values["flagged"] == ["smart/gamma/seed 0"] and page.values["visible"]


def test_the_mlops_group_renders_apart_in_chromium(tmp_path: Path) -> None:
    """An MLOps competition's cells form their own group, beside v1's splits and never inside All."""
    complexity = {**COMPLEXITY, "delta": "mlops"}
    THRESHOLDS["delta"], LOWER_IS_BETTER["delta"] = (0.8, 0.7, 0.6, 0.4), False
    try:
        records = [r for r in RECORDS if r["competition_id"] == "alpha"] + [
            _record(agent, "delta", seed, score)
            for agent, scores in (("dummy", (0.1, 0.2)), ("smart", (0.9, 0.65)))
            for seed, score in enumerate(scores)
        ]
    finally:
        del THRESHOLDS["delta"], LOWER_IS_BETTER["delta"]
    report = aggregate(
        ReportData(records, ["dummy", "smart"], ["alpha", "delta"], [0, 1], "mixed", complexity)
    )
    groups = report["agents"]["smart"]["groups"]
    assert groups["mlops"]["competitions"] == 1 and groups["all"]["competitions"] == 1
    assert groups["mlops"]["metrics"]["any_medal"]["mean"] == 100.0  # gold, then bronze
    assert groups["all"]["metrics"]["any_medal"]["mean"] == 100.0  # alpha only: 0.95 and 0.85
    page_file = tmp_path / "report.html"
    page_file.write_text(to_html(report), encoding="utf-8")
    cells = (
        "Array.from(document.querySelector('#headline + table').rows,"
        " r => Array.from(r.cells, c => c.textContent))"
    )
    page = open_page(page_file, {**EXPRESSIONS, "cells": cells})
    assert page.errors == [] and page.requests == []
    assert page.values["bars"] == 2 * len(groups)
    header, dummy, smart = page.values["cells"]
    mlops = next(i for i, text in enumerate(header) if text.startswith("mlops"))
    assert header[mlops].replace(" ", "") == "mlopssplit:1"
    assert dummy[mlops].startswith("0.0 ± 0.0") and smart[mlops].startswith("100.0 ± 0.0")
