"""Test helpers: run or grade one cell from its parts, the way the stages do, with paths of the test's own.

Tests that predate :class:`mlebench.spec.cell.Cell` pass a cell's parts one by one; these helpers build the
cell once and call the runner or grader with it, writing run.json as the run stage does.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mlebench.execution.docker.agent import ContainerRunRecord, DockerRunner, container_env
from mlebench.execution.grading import grade_cell
from mlebench.execution.runners import run_cell
from mlebench.reporting.records import RunRecord
from mlebench.spec.cell import Cell
from mlebench.spec.declarations import Competition
from mlebench.spec.params import AgentConfig, DockerSettings, Hardware


def cell(
    competition_id: str,
    agent_name: str,
    agent: AgentConfig | None,
    hardware: Hardware | None,
    seed: int,
    public: Path,
    out: Path,
    root: Path,
    private: Path | None = None,
) -> Cell:
    """One cell with the test's own paths."""
    return Cell(
        competition_id,
        agent_name,
        seed,
        root,
        public,
        private or public.parent / "private",
        out,
        agent,
        hardware,
    )


def run_local(
    competition_id: str,
    agent_name: str,
    agent: AgentConfig,
    hardware: Hardware,
    seed: int,
    public: Path,
    out: Path,
    root: Path,
) -> RunRecord:
    """Run with the local runner and write run.json."""
    return run_cell(
        cell(competition_id, agent_name, agent, hardware, seed, public, out, root), "local", DockerSettings()
    )


def run_docker(
    competition_id: str,
    agent_name: str,
    agent: AgentConfig,
    hardware: Hardware,
    seed: int,
    public: Path,
    out: Path,
    root: Path,
    settings: DockerSettings,
    *,
    sleep: Callable[[float], None] = time.sleep,
) -> ContainerRunRecord:
    """Run with the docker runner and write run.json."""
    record = DockerRunner(settings, sleep=sleep).run(
        cell(competition_id, agent_name, agent, hardware, seed, public, out, root)
    )
    record.write(out)
    return record


def grade_run(
    comp: Competition,
    agent: str,
    seed: int,
    run: Path,
    public: Path,
    private: Path,
    root: Path,
    grader: str = "",
) -> dict[str, Any]:
    """Grade a finished run where its runner grades (or with ``grader``); return the record as written."""
    where = {"host": "host", "docker": "docker", "": ""}[grader]
    return grade_cell(
        cell(comp.id, agent, None, None, seed, public, run, root, private), grader=where
    ).to_json()


def environment(competition_id: str, agent: AgentConfig, hardware: Hardware, seed: int) -> dict[str, str]:
    """Return the agent's environment in a container."""
    return container_env(Cell(competition_id, "agent", seed, Path(), Path(), Path(), Path(), agent, hardware))
