"""DVC stage `report`: aggregate every grading record of the plan into report/ (json, md, html, plots)."""

from __future__ import annotations

import argparse

from mlebench.reporting.report import summary, write_report
from mlebench.stage import run_stage
from mlebench_spec.params import stage_params


def main(argv: list[str] | None = None) -> int:
    """Write report/{report.json,report.md,report.html,metrics.json,headline.csv}."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--agents", required=True, help="comma-separated agent names of the plan")
    parser.add_argument(
        "--integrity", action="store_true", help="read each cell's integrity verdict (the plan checks them)"
    )
    parser.add_argument(
        "--reproduce", action="store_true", help="read each reproduced cell's reproduction (process section)"
    )
    args = parser.parse_args(argv)
    params = stage_params(["competition_set", "seeds", "report", *(["reproduce"] if args.reproduce else [])])
    report = write_report(
        args.agents.split(","),
        params["competition_set"],
        params["seeds"],
        pad_missing=params["report"]["pad_missing"],
        count_flagged=params["report"]["count_flagged"],
        integrity=args.integrity,
        reproduce=params["reproduce"]["headline"] if args.reproduce else "",
    )
    print(summary(report))
    return 0


if __name__ == "__main__":
    raise SystemExit(run_stage(main))
