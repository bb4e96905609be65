"""Test helpers: run or grade one cell from its parts, the way the stages do, with paths of the test's own.

Tests that predate :class:`mlebench_spec.cell.Cell` pass a cell's parts one by one; these helpers build the
cell once and call the runner or grader with it, writing run.json as the run stage does.
"""

from __future__ import annotations

import contextlib
import os
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from mlebench.execution.contract import container_env
from mlebench.execution.docker.agent import ContainerRunRecord
from mlebench.execution.grading import grade_cell
from mlebench.execution.runners import run_cell, runner_class
from mlebench.reporting.records import RunRecord
from mlebench_spec.cell import Cell
from mlebench_spec.declarations import Competition
from mlebench_spec.params import AgentConfig, DockerSettings, Hardware


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


GVISOR = "gvisor"
"""The tests' name for the ``docker`` runner with ``docker.runtime: runsc`` (a runner parameter)."""
GVISOR_RUNTIME = os.environ.get("MLEBENCH_GVISOR_RUNTIME", "runsc")
"""The engine's gVisor runtime the ``gvisor`` parameter names (``runsc``, as environment/start_engine.sh
registers it; another name where an engine offers gVisor under one)."""


PODMAN_ROOTFUL = "podman-rootful"
"""The tests' name for the ``podman`` runner run by root with no ``CONTAINER_HOST``: root's own (rootful)
Podman service, which the runner starts itself (the ``podman`` parameter: an ordinary user's rootless one)."""


@contextlib.contextmanager
def engine_env(runner: str) -> Iterator[None]:
    """Within it, the engine is the one test parameter ``runner`` names (rootful: no CONTAINER_HOST)."""
    if runner != PODMAN_ROOTFUL:
        yield
        return
    previous = os.environ.pop("CONTAINER_HOST", None)
    try:
        yield
    finally:
        if previous is not None:
            os.environ["CONTAINER_HOST"] = previous


def engine_runner(runner: str, settings: DockerSettings) -> tuple[str, DockerSettings]:
    """Return the runner and settings a test parameter stands for (``gvisor``: docker under ``runsc``)."""
    if runner == GVISOR:
        return "docker", settings.model_copy(update={"runtime": GVISOR_RUNTIME})
    if runner == PODMAN_ROOTFUL:
        return "podman", settings
    return runner, settings


def plan_overrides(runner: str) -> list[str]:
    """Return the ``mlebench plan`` overrides a test parameter stands for (as :func:`engine_runner`)."""
    if runner == GVISOR:
        return ["runner=docker", f"docker.runtime={GVISOR_RUNTIME}"]
    return [f"runner={runner}"]


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
    runner: str = "docker",
) -> ContainerRunRecord:
    """Run with an isolating runner (``docker``, ``podman`` or ``sandbox``) and write run.json.

    ``gvisor`` is the ``docker`` runner under the OCI runtime ``runsc`` (gVisor's user-space kernel);
    ``podman-rootful`` the ``podman`` runner on root's own service.
    """
    param = runner
    runner, settings = engine_runner(runner, settings)
    share(public, out.parent)
    chosen = (
        runner_class(runner)(settings, sleep=sleep)
        if runner in ("docker", "podman")
        else runner_class(runner)(settings)
    )
    with engine_env(param):
        record = chosen.run(cell(competition_id, agent_name, agent, hardware, seed, public, out, root))
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
    where = {"host": "host", "docker": "docker", "podman": "podman", "": ""}[grader]
    return grade_cell(
        cell(comp.id, agent, None, None, seed, public, run, root, private), grader=where
    ).to_json()


def environment(competition_id: str, agent: AgentConfig, hardware: Hardware, seed: int) -> dict[str, str]:
    """Return the agent's environment in a container."""
    return container_env(Cell(competition_id, "agent", seed, Path(), Path(), Path(), Path(), agent, hardware))


def share(*paths: Path) -> None:
    """Let the Podman service's user read ``paths`` (the trees) and reach them (their folders).

    pytest makes its temporary folders root's, mode 0700; the bind mounts of the agent's and the grader's
    containers are opened by that user. A no-op outside the temporary folder.
    """
    if os.getuid() != 0:
        return
    tmp = Path(tempfile.gettempdir()).resolve()
    for path in paths:
        path = path.resolve()
        if tmp not in path.parents:
            continue
        for folder in [p for p in path.parents if tmp in p.parents]:
            folder.chmod(folder.stat().st_mode | stat.S_IXOTH)
        if not path.exists():
            continue
        for item in [path, *path.rglob("*")]:
            if item.is_symlink():
                continue
            extra = stat.S_IROTH | (stat.S_IXOTH if item.is_dir() else 0)
            item.chmod(item.stat().st_mode | extra)
