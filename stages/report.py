"""DVC stage `report`: aggregate every grading record of the plan into report.{json,md} and metrics.json."""

from __future__ import annotations

import argparse
import json

from mlebench.data.audit import known_leaks
from mlebench.spec.declarations import load_competition
from mlebench.spec.params import stage_params
from mlebench.spec.paths import audit_path, grade_path, report_dir
from mlebench.reporting.report import aggregate, headline, load_records, to_markdown
from mlebench.stage import run_stage


def main(argv: list[str] | None = None) -> int:
    """Write report/report.json, report/report.md and report/metrics.json."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--agents", required=True, help="comma-separated agent names of the plan")
    args = parser.parse_args(argv)
    params = stage_params(["competition_set", "seeds"])
    agents, cset, seeds = args.agents.split(","), params["competition_set"], params["seeds"]
    ids = cset["ids"]
    records = load_records([grade_path(a, c, s) for a in agents for c in ids for s in seeds])
    complexity = {c: load_competition(c).complexity for c in ids}
    leaks = {c: known_leaks(json.loads(audit_path(c).read_text(encoding="utf-8"))) for c in ids}
    report = aggregate(records, agents, ids, seeds, cset["name"], complexity, leaks)
    out = report_dir()
    out.mkdir(parents=True, exist_ok=True)
    (out / "report.json").write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    (out / "report.md").write_text(to_markdown(report), encoding="utf-8")
    (out / "metrics.json").write_text(json.dumps(headline(report), indent=2) + "\n", encoding="utf-8")
    print(to_markdown(report).split("## Cells by status")[0])
    return 0


if __name__ == "__main__":
    raise SystemExit(run_stage(main))
