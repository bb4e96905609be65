"""Grade a cell the Docker runner ran in its own grader container, after the agent's container is gone.

The grader image (``environment/grader.Dockerfile``) holds the modules grading imports. The container has no
network, runs as uid 1000 with every capability dropped, and mounts read-only, at their usual places under
``/mlebench``, the competition folder, its public split, its private answers and the cell's run directory.
It scores the submission (:func:`mlebench.execution.scoring.score_cell`, the same call the host grader
makes) and hands the outcome back as JSON; the host builds the grading record. The answers and the agent
never share a container.
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

from mlebench.execution.docker import egress, extract, gvisor
from mlebench.execution.docker.agent import AGENT_USER, DOCKER, Engine
from mlebench.execution.docker.engine import InfraError, is_engine_failure, with_retries
from mlebench.execution.docker.images import (
    ImageRef,
    context_sources,
    env_context,
    env_image,
    grader_context,
    grader_image,
)
from mlebench.reporting.records import GradeOutcome, RunRecord
from mlebench_spec.cell import Cell
from mlebench_spec.errors import ConfigError
from mlebench_spec.network import NetworkPolicy
from mlebench_spec.params import DockerSettings

GRADER_ROOT = "/mlebench"
GRADER_OUT = "/home/grader/out/outcome.json"
GRADER_TIMEOUT_SECS = 3 * 3600
GRADER_PIDS = 512


def grade_in_container(
    cell: Cell, run: RunRecord | None, settings: DockerSettings, mode: str = "v1", engine: Engine = DOCKER
) -> tuple[GradeOutcome, dict[str, str]]:
    """Score one cell in a fresh grader container; return the outcome and the grader's lineage facts.

    ``engine`` is where the grader container runs (Docker's unless a runner's grader passes another).

    Engine failures and graders killed by a signal are retried (bounded); when they persist, or the grader
    container fails otherwise without writing an outcome, this raises a ConfigError so the grade stage fails
    and is re-run later (the run is kept).
    """
    try:
        client = with_retries(
            engine.connect, f"connecting to the {engine.title} engine", settings.infra_retries
        )
        # under gVisor where the agent ran under it (no network: the runtime the setting names)
        runtime, kernel = with_retries(
            lambda: gvisor.engine_runtime(client, settings.runtime, NetworkPolicy("none")),
            f"asking the {engine.title} engine for its runtimes",
            settings.infra_retries,
        )
        env = env_image(client, settings, cell.root)
        image = grader_image(client, env, cell.root, settings.infra_retries)
        outcome = with_retries(
            lambda: _grade_once(client, image, cell, runtime, mode),
            "grading in the grader container",
            settings.infra_retries,
        )
    except InfraError as exc:
        raise ConfigError(
            f"{cell.label}: could not grade in the grader container: {exc}\n"
            f"The agent's run is kept; start the {engine.title} engine and re-run `dvc repro`."
        ) from None
    lineage = {"grader_runner": engine.name, "grader_image_id": image.id, "grader_image_tag": image.tag}
    if kernel:  # the grader's system calls met gVisor's kernel, as the agent's did
        lineage.update(grader_kernel=kernel["kernel"], grader_engine_runtime=kernel["engine_runtime"])
    return outcome, lineage


def grader_failure(label: str, code: Any, outcome: str, output: str) -> Exception:
    """Return the error for a grader container that exited with ``code`` without a usable outcome.

    A grader killed by a signal (exit status above 128: an abort in a native library, the kernel's OOM
    killer) says nothing about the submission, so it is an :class:`InfraError`, retried like an engine
    failure; any other exit is the grader's own error and is not retried.

    >>> type(grader_failure("a/b/0", 134, "missing []", "terminate called")).__name__
    'InfraError'
    >>> type(grader_failure("a/b/0", 1, "missing []", "Traceback ...")).__name__
    'RuntimeError'
    """
    message = f"the grader container for {label} exited with {code} and outcome {outcome}:\n{output}"
    killed = isinstance(code, int) and code > 128
    return InfraError(message) if killed else RuntimeError(message)


def image_sources(root: Path) -> list[str]:
    """Checkout files the grader image (and the env image it is built on) is made of."""
    env, grader = context_sources(env_context(root), root), context_sources(grader_context(root), root)
    return sorted(set(env) | set(grader))


def _mounts(cell: Cell) -> list[Any]:
    """Return the four read-only bind mounts, at the same relative places as in the checkout."""
    from docker.types import Mount

    rel = Cell.planned(cell.competition_id, cell.agent, cell.seed, root=Path())
    sources = {
        Path("competitions") / cell.competition_id: cell.root / "competitions" / cell.competition_id,
        rel.public: cell.public,
        rel.private: cell.private,
        rel.run_dir: cell.run_dir,
    }
    return [
        Mount(
            target=f"{GRADER_ROOT}/{target.as_posix()}",
            source=str(source.resolve()),
            type="bind",
            read_only=True,
        )
        for target, source in sources.items()
    ]


def _grade_once(client: Any, image: ImageRef, cell: Cell, runtime: str, mode: str) -> GradeOutcome:
    command = [
        "python",
        "-m",
        "mlebench.execution.docker.grade_entry",
        "--competition",
        cell.competition_id,
        "--agent",
        cell.agent,
        "--seed",
        str(cell.seed),
        "--mode",
        mode,
        "--out",
        GRADER_OUT,
    ]
    container = client.containers.create(
        image=image.id,
        command=command,
        user=AGENT_USER,
        runtime=runtime,
        mounts=_mounts(cell),
        network_mode="none",
        detach=True,
        init=True,
        cap_drop=["ALL"],
        security_opt=gvisor.security_opt(runtime),  # under gVisor: a seccomp profile it applies as meant
        # the owner label too, so that the reaper (mlebench.execution.sweep) removes it after a killed run
        labels=egress.labels("grader", f"{cell.agent}/{cell.competition_id}/{cell.seed}"),
        working_dir=GRADER_ROOT,
        # under gVisor its kernel holds the pids, and the cgroup leaves room for that kernel's threads
        **({"pids_limit": GRADER_PIDS} | gvisor.container_limits(runtime, GRADER_PIDS)),
    )
    try:
        container.start()
        status = container.wait(timeout=GRADER_TIMEOUT_SECS)
        with tempfile.TemporaryDirectory(prefix="mlebench-grade-") as tmp:
            notes: list[str] = []
            got = extract.fetch_file(container, GRADER_OUT, Path(tmp) / "outcome.json", notes)
            code = status.get("StatusCode")
            if got != "copied" or code != 0:
                output = container.logs(stdout=True, stderr=True, tail=60).decode("utf-8", "replace")
                raise grader_failure(cell.label, code, f"{got} {notes}", output)
            handed_back = (Path(tmp) / "outcome.json").read_text(encoding="utf-8")
            return GradeOutcome.from_json(json.loads(handed_back))
    finally:
        try:
            container.remove(force=True, v=True)
        except Exception as exc:  # noqa: BLE001 - a leftover container must not hide the grading outcome
            if not is_engine_failure(exc):
                raise


__all__ = ["grade_in_container", "image_sources"]
