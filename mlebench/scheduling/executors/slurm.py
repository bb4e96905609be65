"""The ``slurm`` executor: one Slurm job per stage, submitted through ``submitit``, on a shared disk.

Each job calls :func:`~mlebench.scheduling.executors.base.run_command` with the stage's command in the shared
checkout (the scheduler records the stage in ``dvc.lock`` once it returns). Resources come from the hardware
profile: ``--cpus-per-task``, ``--mem``, ``--gres=gpu:N``, ``--time`` (the time limit plus
``time_margin_secs``); partition, account and QoS from ``conf/executor/slurm.yaml``. Jobs are submitted with
``--no-requeue``: a job Slurm preempts, requeues, fails on a node or kills ends without a result, which this
executor sees through ``squeue`` and reports as lost (``infra``); a job requeued anyway (an admin's
``scontrol requeue``, a preemption policy) does not run the stage again (``SLURM_RESTART_COUNT``), and the
scheduler's own bounded retry runs it again. No accounting database is needed (``sacct`` is never called).
"""

from __future__ import annotations

import math
import os
import socket
import subprocess
import time
from pathlib import Path
from typing import Any, ClassVar

from pydantic import Field

from mlebench.scheduling.executors.base import Done, Job, Resources, Settings, run_command

_LOST_STATES = {
    *("PREEMPTED", "NODE_FAIL", "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY", "TIMEOUT", "REVOKED"),
    *("REQUEUED", "REQUEUE_HOLD", "REQUEUE_FED"),
}


def _job(cmd: str, cwd: str, log: str, env: dict[str, str]) -> dict[str, Any]:
    """Run the stage's command, unless Slurm requeued this job (it ran before, and was preempted or requeued).

    A requeued job does not run the stage a second time behind the scheduler's back: it returns at once and
    the scheduler retries the stage under its own bounded backoff.
    """
    restarts = int(os.environ.get("SLURM_RESTART_COUNT", "0") or 0)
    if restarts:
        return {"requeued": restarts, "host": socket.gethostname()}
    return run_command(cmd, cwd, log, env)


class SlurmSettings(Settings):
    """``conf/executor/slurm.yaml``: the common settings (``slots``: max concurrent jobs) plus Slurm's."""

    partition: str = ""
    account: str = ""
    qos: str = ""
    time_margin_secs: int = Field(default=300, ge=0)
    folder: str = ""
    """Where submitit keeps job scripts, pickles and logs ("": runs/.scheduler/slurm)."""
    lost_grace_secs: float = Field(default=5.0, ge=0)


class SlurmExecutor:
    """Stages as Slurm jobs (see the module docstring)."""

    name: ClassVar[str] = "slurm"
    Settings = SlurmSettings

    def __init__(self, settings: SlurmSettings, root: Path) -> None:
        import submitit

        self.settings = settings
        folder = Path(settings.folder) if settings.folder else root / "runs" / ".scheduler" / "slurm"
        self._executor = submitit.SlurmExecutor(folder=str(folder / "%j"), max_num_timeout=0)
        self._jobs: dict[str, tuple[Job, Any, float]] = {}
        self._seen_running: set[str] = set()
        self._gone_since: dict[str, float] = {}
        self._refused: list[Done] = []

    def problem(self, resources: Resources) -> str | None:
        """Slurm itself rejects what the cluster cannot hold; GPU sharing is the cluster's to configure."""
        if resources.gpus and resources.gpu_sharing > 1:
            return (
                "GPU sharing is configured in Slurm itself (gres/shard, MPS), not per profile: gpu_sharing: 1"
            )
        return None

    def submit(self, job: Job) -> bool:
        """``sbatch`` the job unless ``capacity`` jobs are already submitted."""
        if len(self._jobs) >= self.settings.capacity:
            return False
        r, s = job.resources, self.settings
        params: dict[str, Any] = {
            "job_name": job.key.rsplit(":", 1)[-1],
            "cpus_per_task": max(1, math.ceil(r.cpus)),
            "mem": f"{max(1, math.ceil(r.memory / 1024**2))}M",
            "time": max(1, math.ceil((r.time_limit_secs + s.time_margin_secs) / 60)),
            "ntasks_per_node": 1,
            "nodes": 1,
            "additional_parameters": {"no_requeue": True},
        }
        if r.gpus:
            params["gres"] = f"gpu:{r.gpus}"
        for key in ("partition", "account", "qos"):
            if getattr(s, key):
                params[key] = getattr(s, key)
        from submitit.core.utils import FailedJobError

        self._executor.update_parameters(**params)
        try:
            handle = self._executor.submit(_job, job.cmd, job.cwd, job.log, job.env)
        except FailedJobError as exc:  # sbatch refused or the controller did not answer
            self._refused.append(Done(job, None, f"sbatch failed: {str(exc)[-500:]}"))
            return True
        self._jobs[job.key] = (job, handle, time.monotonic())
        return True

    def wait(self, timeout: float) -> list[Done]:
        """Jobs whose result arrived or that Slurm no longer knows, polling ``squeue`` until ``timeout``."""
        deadline = time.monotonic() + timeout
        while True:
            out = self._collect()
            if out or time.monotonic() >= deadline or not (self._jobs or self._refused):
                return out
            time.sleep(min(0.5, max(0.0, deadline - time.monotonic())))

    def running(self) -> int:
        """Jobs submitted and not yet collected."""
        return len(self._jobs)

    def job_id(self, key: str) -> str:
        """Return the Slurm job id."""
        entry = self._jobs.get(key)
        return str(entry[1].job_id) if entry else ""

    def shutdown(self) -> None:
        """``scancel`` every job still submitted."""
        ids = [str(h.job_id) for _, h, _ in self._jobs.values()]
        if ids:
            subprocess.run(["scancel", *ids], capture_output=True, timeout=60)
        self._jobs.clear()

    def stop_leftovers(self, job_ids: list[str]) -> list[str]:
        """``scancel`` the jobs a killed scheduler left queued; wait (up to 120 s) until they are gone."""
        alive = list(_squeue(job_ids))
        if alive:
            subprocess.run(["scancel", *alive], capture_output=True, timeout=60)
        deadline = time.monotonic() + 120
        while _squeue(alive) and time.monotonic() < deadline:
            time.sleep(1)
        return alive

    def _collect(self) -> list[Done]:
        from submitit.core.utils import FailedJobError, UncompletedJobError

        states = _squeue([str(h.job_id) for _, h, _ in self._jobs.values()])
        out, self._refused = self._refused, []
        for key, (job, handle, _) in list(self._jobs.items()):
            jid = str(handle.job_id)
            state = states.get(jid, "")
            if state == "RUNNING":
                self._seen_running.add(jid)
            lost = ""
            if handle.paths.result_pickle.exists():
                try:
                    info = handle.result()
                    if info.get("requeued"):
                        why = f"slurm job {jid} was requeued ({info['requeued']}×); it did not run again"
                        out.append(Done(job, None, why, info["host"], jid))
                    else:
                        code = info["returncode"]
                        infra = f"job killed by signal {-code}" if code < 0 else ""
                        out.append(Done(job, None if infra else code, infra, info["host"], jid))
                except (FailedJobError, UncompletedJobError) as exc:
                    out.append(Done(job, None, f"slurm job {jid} failed: {str(exc)[-500:]}", "", jid))
                del self._jobs[key]
                continue
            if state in _LOST_STATES or (state == "PENDING" and jid in self._seen_running):
                lost = f"slurm job {jid} was {state.lower()} (requeued or preempted)"
                subprocess.run(["scancel", jid], capture_output=True, timeout=60)
            elif not state:
                first = self._gone_since.setdefault(jid, time.monotonic())
                if time.monotonic() - first > self.settings.lost_grace_secs:
                    lost = f"slurm job {jid} ended without a result (killed, cancelled or its node lost)"
            if lost:
                out.append(Done(job, None, lost, "", jid))
                del self._jobs[key]
        return out


def _squeue(ids: list[str]) -> dict[str, str]:
    if not ids:
        return {}
    proc = subprocess.run(
        ["squeue", "-h", "-o", "%i %T", "-j", ",".join(ids)], capture_output=True, text=True, timeout=60
    )
    states = {}
    for line in proc.stdout.splitlines():
        parts = line.split()
        if len(parts) == 2:
            states[parts[0]] = parts[1]
    return states
