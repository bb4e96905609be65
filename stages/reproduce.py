"""DVC stage `reproduce`: re-run one cell's kept code by its declared command and grade what it writes.

Process evaluation (``params.yaml: reproduce``, off by default): a fresh container of the same image and
hardware profile, the public split read-only, no network, under ``reproduce.time_fraction`` of the time
limit; the re-run is graded as the original was and judged against it (reproduced / differs / failed /
not_declared), with the code's size, files and ruff findings beside it. A competition graded on a re-run
(``rerun:``, the next data version) has this stage in every cell, on its hidden inputs, before the grade.
"""

from __future__ import annotations

from dataclasses import replace

from mlebench.execution.reproduce import reproduce_cell
from mlebench.stage import cell_args, run_stage
from mlebench_spec.cell import Cell
from mlebench_spec.datadir import answers_dir
from mlebench_spec.params import DataSettings, DockerSettings, plan_reproduce, stage_params


def main(argv: list[str] | None = None) -> int:
    """Reproduce runs/<agent>/<id>/<seed>/ into reproductions/<agent>/<id>/<seed>/reproduction.json."""
    args = cell_args(__doc__ or "", argv)
    keys = [f"agent.{args.agent}", "hardware", "docker", "descriptions", "data", "grading"]
    params = stage_params(keys)
    cell = Cell.from_params(args.competition, args.agent, args.seed, params)
    data = DataSettings.model_validate(params["data"])
    cell = replace(cell, private=answers_dir(cell.competition_id, data, cell.root))
    record = reproduce_cell(
        cell,
        plan_reproduce(),  # declared when on; a competition graded on a re-run uses the defaults when off
        DockerSettings.model_validate(params["docker"]),
        params["grading"]["mode"],
    )
    record.write(cell.reproduction_dir)
    print(
        f"{cell.label}: {record.verdict} ({record.status or 'not run'}) score={record.score} "
        f"original={record.original_score} delta={record.delta} in {record.seconds} s"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(run_stage(main))
