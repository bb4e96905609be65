"""Run one agent on one competition for one seed, and collect what it leaves behind.

The local runner starts the agent as a subprocess in a fresh workspace outside the repository that holds a
read-only copy of the public split and nothing else; the private answers are never copied or named there.
It enforces the wall-clock limit (the whole process group is killed at the limit, and whatever submission
exists then is kept) and copies submission, code and logs out without following symlinks (the submission
also at the plan's snapshot marks while the agent runs, :mod:`mlebench.execution.snapshots`). An agent's
failure is recorded, never raised: the stage succeeds so the grid goes on.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from pathlib import Path

from mlebench.execution import collector
from mlebench.execution.contract import agent_env, instructions_file, seed_code
from mlebench.execution.host_process import (
    clear_snapshots,
    collect_outputs,
    copy_file_out,
    make_read_only,
    snapshot_copy,
    supervise,
)
from mlebench.execution.secrets import agent_secret, redact_run
from mlebench.execution.snapshots import snapshotting
from mlebench.reporting.records import RunRecord
from mlebench_spec.cell import Cell
from mlebench_spec.errors import ConfigError
from mlebench_spec.files import utc_now
from mlebench_spec.params import DockerSettings


class LocalRunner:
    """The ``local`` runner: the agent as a subprocess of this host, graded on this host."""

    name = "local"
    grader = "host"
    record = RunRecord

    def __init__(self, settings: DockerSettings) -> None:
        self.settings = settings

    def problem(self) -> str | None:
        """Why the runner cannot run here: never (it needs only this host)."""
        return None

    @staticmethod
    def image_sources(root: Path) -> list[str]:
        """Return no files: the local runner builds no image."""
        return []

    def run(self, cell: Cell) -> RunRecord:
        """Run the agent as a local subprocess and collect ``submission.csv``, ``code/`` and ``logs/``."""
        return run_local(cell)


def run_local(cell: Cell) -> RunRecord:
    """Run the agent as a local subprocess; write ``{submission.csv,code/,logs/}`` into the cell's run dir.

    Returns the run record (the caller writes it: :func:`mlebench.execution.runners.run_cell`).
    """
    agent, hardware = cell.running()
    agent_dir = (cell.root / agent.path).resolve()
    if not (agent_dir / agent.command[-1]).exists() and not shutil.which(agent.command[0]):
        raise ConfigError(f"agent {cell.agent!r}: {agent.command} not found in {agent_dir}")
    if not cell.public.is_dir():
        raise ConfigError(
            f"{cell.public} is missing: run `dvc repro` for the prepare stage of {cell.competition_id}"
        )
    secret = agent_secret(agent, cell.agent)
    out = cell.run_dir
    out.mkdir(parents=True, exist_ok=True)
    with collector.scratch_dir(f"mlebench-{cell.competition_id}-") as tmp:
        home = Path(tmp) / "home"
        dirs = {name: home / name for name in ("data", "submission", "code", "logs", "agent")}
        shutil.copytree(cell.public, dirs["data"], symlinks=False)
        make_read_only(dirs["data"])
        for name in ("submission", "code", "logs"):
            dirs[name].mkdir()
        seed_code(cell, dirs["code"])
        shutil.copytree(agent_dir, dirs["agent"], ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
        shutil.copy(instructions_file(cell), home / "instructions.txt")
        env = agent_env(cell, home, dirs)
        # `python` in what the agent starts (its scripts, a reproduce.sh) is this interpreter, as in its argv
        env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env["PATH"]])
        if secret is not None:
            env.update(secret.env())
        command = [sys.executable if part == "python" else part for part in agent.command]
        clear_snapshots(out)
        started, t0 = utc_now(), time.monotonic()
        copy = snapshot_copy(dirs["submission"] / "submission.csv")
        with snapshotting(out, cell.snapshots, hardware.time_limit_secs, t0, copy) as snapper:
            status, code = supervise(
                command, dirs["agent"], env, hardware.time_limit_secs, out / "agent_output.log"
            )
        seconds = round(time.monotonic() - t0, 3)
        finished = utc_now()
        notes: list[str] = list(snapper.errors)
        exists = copy_file_out(dirs["submission"] / "submission.csv", out / "submission.csv", notes)
        collect_outputs({dirs["code"]: out / "code", dirs["logs"]: out / "logs"}, notes)
    if secret is not None:
        notes = redact_run(out, secret, notes)
    return RunRecord.for_cell(
        cell,
        "local",
        status=status,
        exit_code=code,
        started_at=started,
        finished_at=finished,
        agent_seconds=seconds,
        limits_enforced=["time_limit_secs", "cpus (thread env vars only)"],
        submission_exists=exists,
        extraction_notes=notes,
        network_policy=agent.policy,  # not held: the agent shares this host's network
    )
