"""DVC stage `report`: aggregate every grading record of the plan into report/ (json, md, html, plots)."""

from __future__ import annotations

import argparse

from mlebench.reporting.inputs import ReportInputs
from mlebench.reporting.report import summary, write_report
from mlebench.stage import run_stage


def main(argv: list[str] | None = None) -> int:
    """Write report/{report.json,report.md,report.html,metrics.json,headline.csv}.

    What to read (agents, integrity verdicts, reproductions) is the plan's, recorded in this stage's
    ``dvc.yaml`` entry, and the settings are its params: :meth:`ReportInputs.planned`.
    """
    argparse.ArgumentParser(description=__doc__).parse_args(argv)
    print(summary(write_report(ReportInputs.planned())))
    return 0


if __name__ == "__main__":
    raise SystemExit(run_stage(main))
