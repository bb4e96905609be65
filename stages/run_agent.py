"""DVC stage `run_agent`: one agent × competition × seed, seeing only the public split."""

from __future__ import annotations

from mlebench.execution.docker import run_cell
from mlebench.spec.params import AgentConfig, DockerSettings, Hardware, stage_params
from mlebench.spec.paths import public_dir, repo_root, run_dir
from mlebench.stage import cell_args, run_stage


def main(argv: list[str] | None = None) -> int:
    """Run ``--agent`` on ``--competition`` with ``--seed``; an agent failure is recorded, not raised."""
    args = cell_args(__doc__ or "", argv)
    params = stage_params([f"agent.{args.agent}", "hardware", "runner", "docker"])
    agent = AgentConfig.model_validate(params[f"agent.{args.agent}"])
    hardware = Hardware.model_validate(params["hardware"])
    record = run_cell(
        params["runner"],
        DockerSettings.model_validate(params["docker"]),
        args.competition,
        args.agent,
        agent,
        hardware,
        args.seed,
        public_dir(args.competition),
        run_dir(args.agent, args.competition, args.seed),
        repo_root(),
    )
    print(
        f"{args.agent}/{args.competition}/seed {args.seed}: {record.status} in {record.agent_seconds} s "
        f"({record.runner} runner)"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(run_stage(main))
