"""The ``local`` executor: a process pool on this host with resource accounting.

Capacity: ``cpus`` (0: ``os.cpu_count()``), ``memory`` ("": MemTotal from /proc/meminfo) and a GPU inventory
(``gpus: auto``: the devices ``nvidia-smi -L`` lists, else the ids in ``$MLEBENCH_GPUS``; or an explicit
list). Each job takes its CPUs, memory and GPUs out of it until it ends; memory and GPUs are never
oversubscribed, and a GPU belongs to one job at a time unless the hardware profile opts into sharing
(``gpu_sharing: N``: up to N jobs hold it at once). A job's GPUs reach it as ``CUDA_VISIBLE_DEVICES`` (the
local runner passes it to the agent, the docker runner turns it into a device request) and are recorded in
the run record. Each job's command runs in its own session and dies with this process.
"""

from __future__ import annotations

import os
import queue
import shutil
import socket
import subprocess
import threading
from pathlib import Path
from typing import ClassVar

from pydantic import Field

from mlebench.scheduling.executors.base import (
    REAPER,
    Done,
    Job,
    Resources,
    Settings,
    kill_group,
    parse_memory,
    run_command,
)
from mlebench.scheduling.executors.warm import WarmStarter, is_warm_job

GPU_ENV = "MLEBENCH_GPUS"
"""Comma-separated GPU ids to use when ``nvidia-smi`` is absent (tests fake an inventory with it)."""


class LocalSettings(Settings):
    """``conf/executor/local.yaml``: the common settings plus this host's capacity (0 / "" / auto: detect).

    ``warm_start``: fork stage commands from a process that imported their module already
    (:mod:`~mlebench.scheduling.executors.warm`), instead of starting an interpreter per stage.
    """

    cpus: float = Field(default=0, ge=0)
    memory: str = ""
    gpus: str | list[str] = "auto"
    warm_start: bool = True


class LocalExecutor:
    """Runs each job as a subprocess of this host once its resources fit (see the module docstring)."""

    name: ClassVar[str] = "local"
    Settings = LocalSettings

    def __init__(self, settings: LocalSettings, root: Path) -> None:
        self.settings = settings
        self.cpus = settings.cpus or float(os.cpu_count() or 1)
        self.memory = parse_memory(settings.memory, "executor.memory") if settings.memory else _mem_total()
        self.gpus = gpu_inventory(settings.gpus)
        self._gpu_holders: dict[str, list[int]] = {g: [] for g in self.gpus}  # each holder's gpu_sharing
        self._used_cpus = 0.0
        self._used_memory = 0
        self._running: dict[str, tuple[Job, tuple[str, ...], list[int]]] = {}
        self._done: queue.Queue[Done | None] = queue.Queue()  # None: wake the waiter, nothing ended
        self._lock = threading.Lock()
        self._warm = WarmStarter(root) if settings.warm_start else None

    def problem(self, resources: Resources) -> str | None:
        """Why a job this big can never run on this host."""
        if resources.cpus > self.cpus:
            return f"needs {resources.cpus:g} CPUs, the host has {self.cpus:g} (set executor.cpus)"
        if resources.memory > self.memory:
            return f"needs {resources.memory} bytes of memory, the host has {self.memory}"
        if resources.gpus > len(self.gpus):
            return (
                f"needs {resources.gpus} GPUs, the inventory has {len(self.gpus)} "
                f"(nvidia-smi -L, ${GPU_ENV} or executor.gpus)"
            )
        return None

    def submit(self, job: Job) -> bool:
        """Start the job if its CPUs, memory and GPUs are free now and a slot is open."""
        r = job.resources
        with self._lock:
            if (
                len(self._running) >= self.settings.capacity
                or self._used_cpus + r.cpus > self.cpus + 1e-9
                or self._used_memory + r.memory > self.memory
            ):
                return False
            devices = self._gpus_for(r)
            if devices is None:
                return False
            for d in devices:
                self._gpu_holders[d].append(r.gpu_sharing)
            self._used_cpus += r.cpus
            self._used_memory += r.memory
            pid: list[int] = []
            self._running[job.key] = (job, devices, pid)
        env = dict(job.env)
        env["CUDA_VISIBLE_DEVICES"] = ",".join(devices)
        threading.Thread(target=self._work, args=(job, env, devices, pid), daemon=True).start()
        return True

    def _gpus_for(self, r: Resources) -> tuple[str, ...] | None:
        """Pick ``r.gpus`` distinct GPUs with room for one more holder (least held first), or None.

        A GPU takes another holder only while it has fewer than every holder's (and the newcomer's)
        ``gpu_sharing``: an exclusive job gets only an idle GPU, and nothing joins one an exclusive job holds.
        """
        room = [g for g, held in self._gpu_holders.items() if len(held) < min([r.gpu_sharing, *held])]
        if len(room) < r.gpus:
            return None
        return tuple(sorted(room, key=lambda g: len(self._gpu_holders[g]))[: r.gpus])

    def warm_up(self, commands: list[tuple[str, str]]) -> None:
        """Start importing, in the background, the stage modules these ``(cmd, cwd)`` commands run."""
        if self._warm is not None:
            self._warm.warm_up(commands)

    def preload(self, modules: list[str]) -> None:
        """Start importing, in the background, these stage modules (before the commands are known)."""
        if self._warm is not None:
            self._warm.preload(modules)

    def wait(self, timeout: float) -> list[Done]:
        """Jobs that ended, waiting up to ``timeout`` s for the first (or for a start, or :meth:`wake`)."""
        out = []
        try:
            out.append(self._done.get(timeout=timeout))
            while True:
                out.append(self._done.get_nowait())
        except queue.Empty:
            pass
        return [d for d in out if d is not None]

    def wake(self) -> None:
        """Make a :meth:`wait` in progress (or the next one) return at once."""
        self._done.put(None)

    def running(self) -> int:
        """Jobs started and not yet collected."""
        with self._lock:
            return len(self._running)

    def job_id(self, key: str) -> str:
        """Return the job's process id (its command's session leader), "" before it started."""
        with self._lock:
            entry = self._running.get(key)
        return str(entry[2][0]) if entry and entry[2] else ""

    def shutdown(self) -> None:
        """Kill every running job's process group."""
        with self._lock:
            pids = [p[0] for _, _, p in self._running.values() if p]
        for pid in pids:
            kill_group(pid)
        if self._warm is not None:
            self._warm.close()

    def stop_leftovers(self, job_ids: list[str]) -> list[str]:
        """Stop the reapers (by pid; warm jobs too) a killed scheduler left; a reused pid is left alone."""
        stopped = []
        for pid in job_ids:
            try:
                cmdline = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            except (OSError, ValueError):
                continue
            cold = len(cmdline) > 1 and cmdline[1].decode(errors="replace") == str(REAPER)
            if cold or is_warm_job(cmdline):
                kill_group(int(pid))
                stopped.append(pid)
        return stopped

    def _work(self, job: Job, env: dict[str, str], devices: tuple[str, ...], pid: list[int]) -> None:
        def started(process: int) -> None:
            pid.append(process)
            self.wake()  # the scheduler logs the start now, not at its next poll

        try:
            args = (job.cmd, job.cwd, job.log, env)
            warm = self._warm.run(*args, on_start=started, nice=job.nice) if self._warm else None
            info = warm or run_command(*args, on_start=started, nice=job.nice)
            code = info["returncode"]
            infra = f"worker killed by signal {-code}" if code < 0 else ""
            done = Done(job, None if infra else code, infra, info["host"], str(info["pid"]), devices)
        except OSError as exc:
            done = Done(job, None, f"could not start the command: {exc}", socket.gethostname(), "", devices)
        with self._lock:
            self._running.pop(job.key, None)
            for d in devices:
                self._gpu_holders[d].remove(job.resources.gpu_sharing)
            self._used_cpus -= job.resources.cpus
            self._used_memory -= job.resources.memory
        self._done.put(done)


def gpu_inventory(setting: str | list[str]) -> list[str]:
    """Return the GPU ids on offer: an explicit list, or (``auto``) nvidia-smi's, else ``$MLEBENCH_GPUS``."""
    if isinstance(setting, list):
        return [str(g) for g in setting]
    if shutil.which("nvidia-smi"):
        try:
            out = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=30).stdout
        except (OSError, subprocess.SubprocessError):
            out = ""
        ids = [line.split(":")[0].split()[-1] for line in out.splitlines() if line.startswith("GPU ")]
        if ids:
            return ids
    return [g.strip() for g in os.environ.get(GPU_ENV, "").split(",") if g.strip()]


def _mem_total() -> int:
    for line in Path("/proc/meminfo").read_text().splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) * 1024
    return 8 * 1024**3
