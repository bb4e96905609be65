"""DVC stage `grade`: score one cell's submission and write its grading record with lineage.

A cell the Docker runner ran is graded in its own grader container (answers mounted read-only there only);
a cell the local runner ran is graded by this process. The answers are the prepare stage's, or those of the
data directory ``params.yaml`` names under ``data`` (ours or MLE-bench v1's layout). A competition graded
on a re-run of the agent's code (``rerun:``) is graded on what the reproduce stage's re-run wrote.
"""

from __future__ import annotations

from dataclasses import replace

from mlebench.execution.grading import grade_planned
from mlebench.stage import cell_args, run_stage
from mlebench_spec.cell import Cell
from mlebench_spec.datadir import answers_dir
from mlebench_spec.params import DataSettings, stage_params


def main(argv: list[str] | None = None) -> int:
    """Grade runs/<agent>/<id>/<seed>/submission.csv into grades/<agent>/<id>/<seed>.json."""
    args = cell_args(__doc__ or "", argv)
    data = DataSettings.model_validate(stage_params(["data"])["data"])
    cell = Cell.planned(args.competition, args.agent, args.seed)
    cell = replace(cell, private=answers_dir(cell.competition_id, data, cell.root))
    mode = stage_params(["grading"])["grading"]["mode"]
    record = grade_planned(cell, mode=mode)  # its submission, or its re-run's (the next data version)
    record.write(cell.grade_path)
    print(f"{cell.label}: {record.status} score={record.outcome.score} (grading.mode {mode})")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_stage(main))
