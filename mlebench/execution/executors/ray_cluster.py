"""The ``ray`` executor: each stage a Ray task with ``num_cpus`` / ``num_gpus`` / ``memory`` from its profile.

``address``: the cluster to join (``auto``, ``127.0.0.1:6379``), or "" to start Ray's own local cluster in
this process, bound to 127.0.0.1. Tasks run the stage's command in the shared checkout (``checkout``, default
the coordinator's); the scheduler records the stage in ``dvc.lock`` once the task returns. Ray itself never
retries a task (``max_retries=0``): a worker or node that dies surfaces here as lost (``infra``), and the
scheduler's bounded retry runs the stage again. Ray sets ``CUDA_VISIBLE_DEVICES`` for a task's GPUs.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any, ClassVar

from mlebench.execution.executors.base import Done, Job, Resources, Settings, run_command


class RaySettings(Settings):
    """``conf/executor/ray.yaml``: the common settings plus where the cluster is."""

    address: str = ""
    num_cpus: float = 0
    """For a cluster started here: the CPUs it offers (0: Ray's default, this host's)."""


def _task(cmd: str, cwd: str, log: str, env: dict[str, str]) -> dict[str, Any]:
    gpus = os.environ.get("CUDA_VISIBLE_DEVICES", "")
    return {**run_command(cmd, cwd, log, {**env, "CUDA_VISIBLE_DEVICES": gpus}), "gpus": gpus}


class RayExecutor:
    """Stages as Ray tasks (see the module docstring)."""

    name: ClassVar[str] = "ray"
    Settings = RaySettings

    def __init__(self, settings: RaySettings, root: Path) -> None:
        import ray

        self.settings = settings
        if not ray.is_initialized():
            kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
            if settings.address:
                ray.init(address=settings.address, **kwargs)
            else:
                ray.init(
                    address="local",
                    _node_ip_address="127.0.0.1",
                    num_cpus=settings.num_cpus or None,
                    **kwargs,
                )
        self._ray = ray
        self._remote = ray.remote(max_retries=0)(_task)
        self._refs: dict[Any, Job] = {}

    def problem(self, resources: Resources) -> str | None:
        """Why the cluster could never hold such a task."""
        total = self._ray.cluster_resources()
        if resources.cpus > total.get("CPU", 0):
            return f"needs {resources.cpus:g} CPUs, the Ray cluster has {total.get('CPU', 0):g}"
        if resources.gpu_sharing > 1 and resources.gpus > 1:
            return "Ray shares only a single GPU (a fraction of one): use gpus: 1, or gpu_sharing: 1"
        if resources.gpus > total.get("GPU", 0):
            return f"needs {resources.gpus} GPUs, the Ray cluster has {total.get('GPU', 0):g}"
        return None

    def submit(self, job: Job) -> bool:
        """Submit the task unless ``capacity`` tasks are in flight (Ray queues the rest by resources)."""
        if len(self._refs) >= self.settings.capacity:
            return False
        r = job.resources
        gpus = r.gpus / r.gpu_sharing if r.gpus == 1 else r.gpus  # a shared GPU: a fraction of one
        ref = self._remote.options(
            num_cpus=r.cpus, num_gpus=gpus, memory=r.memory, name=job.key.rsplit(":", 1)[-1]
        ).remote(job.cmd, job.cwd, job.log, job.env)
        self._refs[ref] = job
        return True

    def wait(self, timeout: float) -> list[Done]:
        """Tasks that ended within ``timeout``."""
        if not self._refs:
            return []
        ready, _ = self._ray.wait(list(self._refs), num_returns=len(self._refs), timeout=timeout)
        out = []
        for ref in ready:
            job = self._refs.pop(ref)
            tid = ref.task_id().hex()[:16]
            try:
                info = self._ray.get(ref)
            except self._ray.exceptions.RayError as exc:
                out.append(Done(job, None, f"ray task lost: {type(exc).__name__}: {str(exc)[:300]}", "", tid))
                continue
            code = info["returncode"]
            infra = f"ray worker's command killed by signal {-code}" if code < 0 else ""
            gpus = tuple(g for g in info.get("gpus", "").split(",") if g)
            out.append(Done(job, None if infra else code, infra, info["host"], tid, gpus))
        return out

    def running(self) -> int:
        """Tasks in flight."""
        return len(self._refs)

    def job_id(self, key: str) -> str:
        """Return the Ray task id."""
        for ref, job in self._refs.items():
            if job.key == key:
                return str(ref.task_id().hex()[:16])
        return ""

    def stop_leftovers(self, job_ids: list[str]) -> list[str]:
        """Stop nothing: a cluster started here died with the killed scheduler (and its reapers with it).

        A task on an external cluster cannot be reached without its ObjectRef; it is left to finish.
        """
        return []

    def shutdown(self) -> None:
        """Cancel tasks in flight (force: their workers are killed)."""
        for ref in list(self._refs):
            self._ray.cancel(ref, force=True)
        self._refs.clear()
