"""DVC stage `run_agent`: one agent × competition × seed, seeing only the public split."""

from __future__ import annotations

from mlebench.execution.runners import run_cell
from mlebench.stage import cell_args, run_stage
from mlebench_spec.cell import Cell
from mlebench_spec.params import DockerSettings, plan_snapshots, stage_params


def main(argv: list[str] | None = None) -> int:
    """Run ``--agent`` on ``--competition`` with ``--seed``; an agent failure is recorded, not raised."""
    args = cell_args(__doc__ or "", argv)
    params = stage_params([f"agent.{args.agent}", "hardware", "runner", "docker", "descriptions"])
    cell = Cell.from_params(args.competition, args.agent, args.seed, params, snapshots=plan_snapshots())
    record = run_cell(cell, params["runner"], DockerSettings.model_validate(params["docker"]))
    print(f"{cell.label}: {record.status} in {record.agent_seconds} s ({record.runner} runner)")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_stage(main))
