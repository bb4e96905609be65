"""The runners a cell can run under, in one explicit registry, and running a cell with one.

A runner is a class with the :class:`Runner` shape: ``name``, where its cells are graded (``grader``, a key
of :data:`mlebench.execution.grading.GRADERS`), the record type it writes (``record``), ``problem()`` (why it
cannot run here, or None), ``image_sources(root)`` (the checkout files of the images it builds, which become
the run stage's deps) and ``run(cell)``. Adding one is a new file plus one line in :data:`RUNNERS`.

``auto`` (the default setting) picks, in :data:`AUTO_ORDER`, the first runner that isolates here: ``docker``
when an engine answers, else ``podman`` when the caller's Podman does (root's: rootful), else ``sandbox``
when bubblewrap can make a sandbox; only then does it fall back to ``local``, with a visible warning. When it
did not get ``docker``, the cell's run.json says so (``runner`` plus ``runner_requested: auto`` and why the
runners before it could not run), so the lineage of every score shows which isolation it really had. An
explicit runner never falls back.
"""

from __future__ import annotations

import dataclasses
import importlib
import sys
from pathlib import Path
from typing import ClassVar, Protocol

from mlebench.execution.contract import instructions_file
from mlebench.reporting.records import RunRecord
from mlebench.reporting.usage import read_usage
from mlebench_spec.cell import Cell
from mlebench_spec.declarations import load_competition
from mlebench_spec.errors import ConfigError, DataError
from mlebench_spec.files import utc_now
from mlebench_spec.hashing import sha256_file
from mlebench_spec.manifest import verify_split
from mlebench_spec.params import DockerSettings
from mlebench_spec.texts import description_pin, text_lineage

AUTO = "auto"
AUTO_ORDER = ("docker", "podman", "sandbox", "local")
"""What ``auto`` tries, in order: the first runner with no problem here."""


class Runner(Protocol):
    """What every runner provides (see the module docstring)."""

    name: ClassVar[str]
    grader: ClassVar[str]
    record: ClassVar[type[RunRecord]]

    def problem(self) -> str | None:
        """Why this runner cannot run cells here, or None."""
        ...

    @staticmethod
    def image_sources(root: Path) -> list[str]:
        """Checkout files of the images this runner builds."""
        ...

    def run(self, cell: Cell) -> RunRecord:
        """Run the cell's agent, leave its outputs in ``cell.run_dir`` and return its run record."""
        ...


RUNNERS: dict[str, str] = {
    "docker": "mlebench.execution.docker.agent:DockerRunner",
    "local": "mlebench.execution.local:LocalRunner",
    "podman": "mlebench.execution.podman:PodmanRunner",
    "sandbox": "mlebench.execution.sandbox:SandboxRunner",
}
"""Each runner's class as ``module:Class``, imported only when that runner is used or probed."""


def runner_modules() -> list[str]:
    """Every registered runner's module (dotted): what a stage that runs cells may import."""
    return sorted({spec.partition(":")[0] for spec in RUNNERS.values()})


def runner_class(name: str) -> type[Runner]:
    """Return the registered runner class ``name``, its module imported now (unknown: a KeyError)."""
    module, _, attr = RUNNERS[name].partition(":")
    return getattr(importlib.import_module(module), attr)


def runner_names() -> list[str]:
    """Every value the ``runner`` setting takes."""
    return [AUTO, *RUNNERS]


def get_runner(name: str, settings: DockerSettings) -> Runner:
    """Return the registered runner ``name`` with the plan's settings; an unknown name is a ConfigError."""
    try:
        cls = runner_class(name)
    except KeyError:
        raise ConfigError(
            f"runner {name!r} is unknown (runner: in conf/config.yaml; known: {', '.join(runner_names())})"
        ) from None
    return cls(settings)


def choose_runner(requested: str, settings: DockerSettings) -> tuple[Runner, str]:
    """Return the runner a cell will use and, when ``auto`` had to fall back, why."""
    if requested != AUTO:
        return get_runner(requested, settings), ""
    problems = []
    for name in AUTO_ORDER:
        runner = get_runner(name, settings)
        problem = runner.problem()
        if problem is None:
            return runner, "; ".join(problems)
        problems.append(problem)
    raise ConfigError(f"runner 'auto': no runner can run here: {'; '.join(problems)}")


IMAGE_RUNNERS = ("docker", "podman")
"""The runners that build images, so run a v1 agent folder (its own Dockerfile)."""


def run_cell(cell: Cell, requested: str, settings: DockerSettings) -> RunRecord:
    """Run one cell with the requested runner and write its run.json (once, atomically)."""
    runner, why = choose_runner(requested, settings)
    if why and runner.name == "local":
        print(
            f"WARNING: runner 'auto' found no usable Docker engine, so {cell.label} runs locally, "
            f"without container isolation: {why}",
            file=sys.stderr,
        )
    elif why:
        print(f"runner 'auto': {cell.label} runs under {runner.name}: {why}", file=sys.stderr)
    v1 = cell.running()[0].v1
    if v1 is not None and runner.name not in IMAGE_RUNNERS:
        raise ConfigError(
            f"{v1.config}: {cell.label}: the v1 agent {v1.id!r} runs in the image its Dockerfile builds, "
            f"which the {runner.name} runner cannot build: use runner {' or '.join(IMAGE_RUNNERS)}"
        )
    texts = cell_texts(cell)
    record = _refused(cell, runner) or runner.run(cell)
    if texts:
        record = dataclasses.replace(record, texts=texts)
    executor = executor_lineage()
    if executor:
        record = dataclasses.replace(record, executor=executor)
    agent = cell.running()[0]
    usage = read_usage(cell.run_dir, agent.prices.model_dump() if agent.prices else None)
    if usage:
        record = dataclasses.replace(record, usage=usage)
    declared = agent.disclosures
    if declared is not None:
        record = dataclasses.replace(record, disclosures=declared.model_dump())
    if why:
        record = dataclasses.replace(
            record, runner_requested=requested, runner_note=f"no Docker engine reachable: {why}"
        )
    collected = cell.run_dir / "submission.csv"
    if collected.is_file() and not collected.is_symlink():  # what verify-bundle checks a bundle against
        record = dataclasses.replace(record, submission_sha256=sha256_file(collected))
    record.write(cell.run_dir)
    return record


def cell_texts(cell: Cell) -> dict:
    """Return the lineage of the texts the cell's agent gets (empty when the split is not prepared).

    Under ``descriptions.source: mlebench`` the prepared description must be v1's (its git blob id the one
    the declaration records): a split prepared with our texts is an error, not a silent mix.
    """
    description = cell.public / "description.md"
    if not description.is_file():
        return {}
    texts = text_lineage(cell.texts.source, description, instructions_file(cell), cell.texts.obfuscate)
    if cell.texts.source == "mlebench":
        comp = load_competition(cell.competition_id, cell.root)
        pinned = description_pin(comp, cell.texts).git_blob
        if texts["description_git_blob"] != pinned:
            wanted = "obfuscated " if cell.texts.obfuscate else ""
            setting = f"descriptions.obfuscate {str(cell.texts.obfuscate).lower()}"
            raise ConfigError(
                f"{description} has git blob id {texts['description_git_blob']}, not that of v1's {wanted}"
                f"description {pinned}: it was prepared with other texts; re-run the prepare stage with "
                f"descriptions.source 'mlebench' and {setting}"
            )
    return texts


def _refused(cell: Cell, runner: Runner) -> RunRecord | None:
    """Return the record of a cell whose public split fails its manifest check (None when it passes).

    The agent never starts: the cell ends ``infra_error`` with the files named, and the stage succeeds so
    the grid goes on (grading records the status; the answers are checked separately).
    """
    if not cell.public.is_dir():
        return None  # the runner's own "prepare first" error
    try:
        verify_split(cell.public)
    except DataError as exc:
        print(f"ERROR: {cell.label}: the agent was not started: {exc}", file=sys.stderr)
        now = utc_now()
        return runner.record.for_cell(
            cell,
            runner.name,
            status="infra_error",
            started_at=now,
            finished_at=now,
            reason=f"the agent was not started: {exc}",
        )
    return None


def executor_lineage() -> dict:
    """How ``mlebench run`` dispatched this cell (empty under plain ``dvc repro``): from its environment."""
    import json
    import os
    import socket

    from mlebench.execution.dispatch_env import EXECUTOR_ENV

    if EXECUTOR_ENV not in os.environ:
        return {}
    info = json.loads(os.environ[EXECUTOR_ENV])
    gpus = os.environ.get("CUDA_VISIBLE_DEVICES", "")
    info.update(host=socket.gethostname(), gpus=[g for g in gpus.split(",") if g])
    for var in ("SLURM_JOB_ID", "RAY_JOB_ID"):
        if var in os.environ:
            info[var.lower()] = os.environ[var]
    return info


def run_image_sources(root: Path) -> list[str]:
    """Checkout files of every image any runner builds for a run: what a run stage depends on."""
    return sorted({rel for name in RUNNERS for rel in runner_class(name).image_sources(root)})


def unisolated_reason(run: dict) -> str:
    """Why a run record (``run.json``, as a dict) says its agent was not isolated ("" when it was).

    Read by the record type of the runner it names, as the grade stage reads it: ``mlebench verify-bundle``
    re-derives a bundled cell's isolation with this, never taking the grading record's word for it.
    """
    name = str(run.get("runner", ""))
    if name not in RUNNERS:
        return f"run.json names runner {name!r}, which is not one of {', '.join(RUNNERS)}"
    try:
        return runner_class(name).record.from_json(run).unisolated()
    except (TypeError, ValueError) as exc:
        return f"run.json is not a {name} run record ({type(exc).__name__}: {exc})"
