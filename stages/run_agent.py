"""DVC stage `run_agent`: one agent × competition × seed, seeing only the public split."""

from __future__ import annotations

from mlebench.execution.runners import run_cell
from mlebench.stage import cell_args, run_stage
from mlebench_spec.cell import Cell
from mlebench_spec.params import (
    AgentConfig,
    DockerSettings,
    Hardware,
    TextSettings,
    plan_snapshots,
    stage_params,
)


def main(argv: list[str] | None = None) -> int:
    """Run ``--agent`` on ``--competition`` with ``--seed``; an agent failure is recorded, not raised."""
    args = cell_args(__doc__ or "", argv)
    params = stage_params([f"agent.{args.agent}", "hardware", "runner", "docker", "descriptions"])
    cell = Cell.planned(
        args.competition,
        args.agent,
        args.seed,
        agent_config=AgentConfig.model_validate(params[f"agent.{args.agent}"]),
        hardware=Hardware.model_validate(params["hardware"]),
        texts=TextSettings.model_validate(params["descriptions"]),
        snapshots=plan_snapshots(),
    )
    record = run_cell(cell, params["runner"], DockerSettings.model_validate(params["docker"]))
    print(f"{cell.label}: {record.status} in {record.agent_seconds} s ({record.runner} runner)")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_stage(main))
