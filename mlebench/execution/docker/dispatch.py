"""Pick the runner for a cell: ``local``, ``docker``, or ``auto`` (Docker when an engine answers).

``auto`` falls back to the local runner with a visible warning when no engine is reachable, and the cell's
run.json says so: ``runner: local`` plus ``runner_requested: auto`` and the reason (so the lineage of every
score shows which isolation it really had). An explicit ``docker`` never falls back: an unreachable engine
is retried and then recorded as ``infra_error``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from mlebench.spec.params import AgentConfig, DockerSettings, Hardware
from mlebench.execution.local import RunRecord, run_local
from mlebench.execution.docker.agent import ContainerRunRecord, run_docker, write_run_json
from mlebench.execution.docker.engine import engine_problem


def resolve_runner(runner: str) -> tuple[str, str]:
    """Return the runner a cell will use and, for an ``auto`` that fell back to local, why."""
    if runner != "auto":
        return runner, ""
    problem = engine_problem()
    return ("docker", "") if problem is None else ("local", problem)


def run_cell(
    runner: str,
    settings: DockerSettings,
    competition_id: str,
    agent_name: str,
    agent: AgentConfig,
    hardware: Hardware,
    seed: int,
    public: Path,
    out: Path,
    root: Path,
) -> RunRecord | ContainerRunRecord:
    """Run one cell with the chosen runner and write its outputs and run.json into ``out``."""
    actual, why = resolve_runner(runner)
    if actual == "docker":
        return run_docker(competition_id, agent_name, agent, hardware, seed, public, out, root, settings)
    if why:
        print(
            f"WARNING: runner 'auto' found no usable Docker engine, so "
            f"{agent_name}/{competition_id}/seed {seed} "
            f"runs locally, without container isolation: {why}",
            file=sys.stderr,
        )
    record = run_local(competition_id, agent_name, agent, hardware, seed, public, out, root)
    if runner != "local":
        data = json.loads((out / "run.json").read_text(encoding="utf-8"))
        data.update(runner_requested=runner, runner_note=f"no Docker engine reachable: {why}")
        write_run_json(data, out)
    return record
