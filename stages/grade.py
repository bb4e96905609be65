"""DVC stage `grade`: score one cell's submission and write its grading record with lineage.

A cell the Docker runner ran is graded in its own grader container (answers mounted read-only there only);
a cell the local runner ran is graded by this process.
"""

from __future__ import annotations

from mlebench.execution.grading import grade_cell
from mlebench.spec.cell import Cell
from mlebench.spec.params import stage_params
from mlebench.stage import cell_args, run_stage


def main(argv: list[str] | None = None) -> int:
    """Grade runs/<agent>/<id>/<seed>/submission.csv into grades/<agent>/<id>/<seed>.json."""
    args = cell_args(__doc__ or "", argv)
    cell = Cell.planned(args.competition, args.agent, args.seed)
    mode = stage_params(["grading"])["grading"]["mode"]
    record = grade_cell(cell, mode=mode)
    record.write(cell.grade_path)
    print(f"{cell.label}: {record.status} score={record.result['score']} (grading.mode {mode})")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_stage(main))
