"""What every executor shares: a job (one DVC stage's command), its resources, its outcome, the protocol.

An executor is an existing engine behind one small interface (:class:`Executor`): the scheduler offers it
jobs (``submit``; False means "not now, no room") and collects outcomes (``wait``). A job is a stage's
``cmd`` run by a shell in the stage's ``wdir`` (:func:`run_command`, the one function every engine's
worker calls). ``Done.infra`` says the engine lost the job (a killed worker, a preempted or failed Slurm
job, a dead Ray worker): the scheduler retries those with bounded backoff. A command that exits non-zero
failed on its own and is never retried. Two methods are optional, looked up by the scheduler: ``warm_up``
(prepare for the stage commands that will run) and ``wake`` (make a ``wait`` in progress return at once, so
the scheduler takes a recorded batch's verdicts without waiting out its poll).
"""

from __future__ import annotations

import os
import re
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, ClassVar, Protocol

from pydantic import BaseModel, ConfigDict, Field

from mlebench.execution.dispatch_env import EXECUTOR_ENV
from mlebench.scheduling.executors.reaper import die_with_parent
from mlebench_spec.errors import ConfigError

JOB_ENV = EXECUTOR_ENV
"""The variable through which a stage learns how it was dispatched (the run stage writes it to run.json)."""

REAPER = Path(__file__).with_name("reaper.py")
"""Run as a script (it imports only the standard library), so the worker needs no importable package."""

_UNITS = {"": 1, "b": 1, "k": 1024, "m": 1024**2, "g": 1024**3, "t": 1024**4}


def parse_memory(text: str | int, where: str = "memory") -> int:
    """Bytes in a Docker-style size (``512m``, ``4g``, ``1.5G``, a plain number of bytes).

    >>> parse_memory("4g"), parse_memory("512m"), parse_memory(1024)
    (4294967296, 536870912, 1024)
    """
    if isinstance(text, int):
        return text
    match = re.fullmatch(r"\s*([0-9.]+)\s*([bkmgt]?)b?\s*", str(text).lower())
    if not match:
        raise ConfigError(f"{where}: {text!r} is not a size (use e.g. 512m, 4g)")
    return int(float(match.group(1)) * _UNITS[match.group(2)])


@dataclass(frozen=True)
class Resources:
    """What one job takes out of the capacity: CPUs, memory (bytes), GPUs, and its wall-clock bound.

    ``gpu_sharing``: how many jobs may hold each of its GPUs at once (1: exclusive; the hardware profile's).
    """

    cpus: float
    memory: int
    gpus: int = 0
    time_limit_secs: int = 3600
    gpu_sharing: int = 1


@dataclass(frozen=True)
class Job:
    """One stage to run: its DVC address, the attempt number, the command and where to run it."""

    key: str
    attempt: int
    cmd: str
    cwd: str
    log: str
    resources: Resources
    env: dict[str, str] = field(default_factory=dict)
    nice: int = 0
    """Added to the command's niceness: stages other than agent runs yield the CPU to running agents."""


@dataclass(frozen=True)
class Done:
    """How a job ended: the command's exit code, or ``infra`` (why the engine lost it) and no code."""

    job: Job
    returncode: int | None
    infra: str = ""
    host: str = ""
    job_id: str = ""
    devices: tuple[str, ...] = ()


class Executor(Protocol):
    """One engine that runs jobs (see the module docstring); one file per engine, one registry line."""

    name: ClassVar[str]

    def problem(self, resources: Resources) -> str | None:
        """Why a job with these resources could never run here (checked before anything is dispatched)."""
        ...

    def submit(self, job: Job) -> bool:
        """Start ``job`` if there is room now; return False (and do nothing) if not."""
        ...

    def wait(self, timeout: float) -> list[Done]:
        """Return the jobs that ended, waiting up to ``timeout`` seconds for the first one."""
        ...

    def running(self) -> int:
        """How many jobs are submitted and not yet returned by :meth:`wait`."""
        ...

    def job_id(self, key: str) -> str:
        """Return the engine's id of the running job for ``key`` ("" when unknown), for the event log."""
        ...

    def shutdown(self) -> None:
        """Cancel what still runs and release the engine."""
        ...

    def stop_leftovers(self, job_ids: list[str]) -> list[str]:
        """Stop jobs a killed scheduler left running (ids from its event log); return those it stopped."""
        ...


def run_command(
    cmd: str, cwd: str, log: str, env: dict[str, str], on_start: Any = None, nice: int = 0
) -> dict[str, Any]:
    """Run a stage's command with a shell in ``cwd``, its output appended to ``log``; return how it went.

    The command runs under :mod:`~mlebench.scheduling.executors.reaper`, in its own session (so the whole
    group can be killed), ``nice`` steps nicer than this process, and it and everything it started die with
    the process that started it. ``on_start(pid)`` is called once it runs. Returns ``returncode`` (negative:
    killed by that signal), ``host``, ``pid`` and ``seconds``.
    """
    Path(log).parent.mkdir(parents=True, exist_ok=True)
    t0 = time.monotonic()
    with open(log, "ab") as fh:
        fh.write(f"[{time.strftime('%H:%M:%S')}] {socket.gethostname()}: {cmd}\n".encode())
        fh.flush()
        proc = subprocess.Popen(
            [sys.executable, str(REAPER), cmd],
            cwd=cwd,
            env={**os.environ, **env},
            stdout=fh,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            preexec_fn=partial(_prepare_child, nice),
        )
        if on_start is not None:
            on_start(proc.pid)
        try:
            code = proc.wait()
        except BaseException:
            kill_group(proc.pid)
            raise
    return {
        "returncode": code,
        "host": socket.gethostname(),
        "pid": proc.pid,
        "seconds": round(time.monotonic() - t0, 3),
    }


def kill_group(pid: int, grace_secs: float = 5.0) -> None:
    """Stop the process group ``pid`` leads (a job's command, under its reaper), if it still exists.

    SIGTERM first, so the reaper kills what the command started in sessions of its own; SIGKILL for what is
    left after ``grace_secs``.
    """
    deadline = time.monotonic() + grace_secs
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(pid, sig)
        except (ProcessLookupError, PermissionError):
            return
        while sig == signal.SIGTERM and time.monotonic() < deadline and _alive(pid):
            time.sleep(0.05)


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _prepare_child(nice: int) -> None:
    """In the child before it runs the command: die with the parent, and be ``nice`` steps nicer."""
    try:
        die_with_parent(signal.SIGKILL)
    except OSError:
        pass
    if nice > 0:
        os.nice(nice)


class Settings(BaseModel):
    """Settings every executor has (``conf/executor/<name>.yaml``); each executor adds its own.

    ``slots``: at most this many agent runs at once (``--jobs`` overrides it); ``stage_slots``: at most this
    many other stages (fetch, prepare, grade, report) at once beside them, so grading keeps pace with the runs
    without taking their slots; an engine holds at most :attr:`capacity` jobs. ``retries``: how often a job
    the engine lost is tried again, waiting ``backoff_secs`` × 2^(attempt-1), at most ``backoff_max_secs``.
    ``stage_cpus`` / ``stage_memory``: what stages other than agent runs (fetch, prepare, grade, report)
    take; agent runs take their hardware profile's. ``stage_nice``: how much nicer those other stages run
    where they share a host with agents, so grading never slows a running agent, whose time limit is
    wall-clock (0: the same priority).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

    slots: int = Field(default=4, ge=1)
    stage_slots: int = Field(default=2, ge=1)
    retries: int = Field(default=2, ge=0, le=10)
    backoff_secs: float = Field(default=2.0, ge=0)
    backoff_max_secs: float = Field(default=60.0, ge=0)
    stage_cpus: float = Field(default=1.0, gt=0)
    stage_memory: str = "1g"
    stage_nice: int = Field(default=10, ge=0, le=19)

    @property
    def capacity(self) -> int:
        """Jobs an engine holds at once: the agent runs' slots plus the other stages'."""
        return self.slots + self.stage_slots
