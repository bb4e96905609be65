"""The ``ray`` executor: each stage a Ray task with ``num_cpus`` / ``num_gpus`` / ``memory`` from its profile.

``address``: the cluster to join (``auto``, ``127.0.0.1:6379``), or "" to start Ray's own local cluster in
this process, bound to 127.0.0.1. Ray itself never retries a task (``max_retries=0``): a worker or node that
dies surfaces here as lost (``infra``), and the scheduler's bounded retry runs the stage again. Ray sets
``CUDA_VISIBLE_DEVICES`` for a task's GPUs.

``shared_disk: true`` (the default): every worker sees the coordinator's checkout; a task runs the stage's
command there, and the scheduler records the stage in ``dvc.lock`` once the task returns.

``shared_disk: false``: workers have disks of their own, and each stage travels through DVC's run-cache
(:mod:`mlebench.scheduling.executors.handoff`). The task checks out the coordinator's git commit in a clone on
the worker's host (under ``worker_checkout``, cloned from ``git_url``), with the coordinator's
``params.yaml``, ``dvc.yaml`` and ``dvc.lock`` files as they are at dispatch; pulls the stage's inputs from
the DVC remotes; runs the stage there as ``dvc repro -s`` does; and pushes its outputs and its run-cache entry
(through ``remote``; outputs with a remote of their own, such as the private answers, go to theirs). When the
task returns, the coordinator fetches that entry and the outputs, and DVC restores the stage from the
run-cache as ``dvc repro -s`` does (re-deriving the key from the coordinator's cmd, deps and params); it is
never allowed to run the command there. Only then is the stage reported done, and the scheduler records it in
``dvc.lock`` as for any executor. A checkout with uncommitted changes other than those files (and
``.gitignore`` files) is refused at the start. Outputs of stages recorded before this run are pushed before
the first stage that needs them is dispatched. A stage command that fails is a failure (never retried); a
worker that dies is lost (``infra``, retried); a hand-off step that fails (clone, pull, push, fetch, restore)
is lost too, with a reason naming the stage and the step.
"""

from __future__ import annotations

import os
from concurrent.futures import FIRST_COMPLETED, Future, ThreadPoolExecutor
from concurrent.futures import wait as wait_futures
from pathlib import Path
from typing import Any, ClassVar

from mlebench.scheduling.executors.base import Done, Job, Resources, Settings, kill_group, run_command
from mlebench.scheduling.executors.handoff import Coordinator, HandoffError, work
from mlebench_spec.errors import ConfigError

_STEPS = 2
"""Hand-off steps the coordinator runs at once (one may fetch while another restores under DVC's lock)."""


class RaySettings(Settings):
    """``conf/executor/ray.yaml``: the common settings plus where the cluster is and how workers see data."""

    address: str = ""
    num_cpus: float = 0
    """For a cluster started here: the CPUs it offers (0: Ray's default, this host's)."""
    shared_disk: bool = True
    """False: workers run each stage in a clone of their own and hand it back through DVC's run-cache."""
    worker_checkout: str = ""
    """Without a shared disk: where each worker host keeps its clones and their DVC cache ("": a default)."""
    git_url: str = ""
    """Without a shared disk: what workers clone ("": this checkout's path, which only this host can read)."""
    remote: str = ""
    """Without a shared disk: the DVC remote results travel through ("": the repository's ``core.remote``)."""


def _task(cmd: str, cwd: str, log: str, env: dict[str, str], nice: int = 0) -> dict[str, Any]:
    gpus = os.environ.get("CUDA_VISIBLE_DEVICES", "")
    return {**run_command(cmd, cwd, log, {**env, "CUDA_VISIBLE_DEVICES": gpus}, nice=nice), "gpus": gpus}


def _own_checkout_task(spec: dict[str, Any], env: dict[str, str]) -> dict[str, Any]:
    gpus = os.environ.get("CUDA_VISIBLE_DEVICES", "")
    return {**work(spec, {**env, "CUDA_VISIBLE_DEVICES": gpus}), "gpus": gpus}


class RayExecutor:
    """Stages as Ray tasks (see the module docstring)."""

    name: ClassVar[str] = "ray"
    Settings = RaySettings

    def __init__(self, settings: RaySettings, root: Path) -> None:
        try:
            import ray
        except ImportError:
            raise ConfigError(
                "executor ray needs the ray package, an extra of this project: pip install -e '.[ray]'"
            ) from None

        self.settings = settings
        self._handoff: Coordinator | None = None
        if not settings.shared_disk:  # before Ray starts: a refused checkout should cost nothing
            self._handoff = Coordinator.open(
                root, settings.git_url, settings.worker_checkout, settings.remote
            )
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
        self._own = ray.remote(max_retries=0)(_own_checkout_task)
        self._refs: dict[Any, Job] = {}
        # without a shared disk: the coordinator's steps before and after each task, off the scheduler's loop
        self._steps: dict[Future, tuple[str, Job, dict[str, Any]]] = {}
        self._step_pids: dict[str, int] = {}
        self._pool = ThreadPoolExecutor(max_workers=_STEPS, thread_name_prefix="ray-handoff")

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
        """Submit the task unless ``capacity`` tasks are in flight (Ray queues the rest by resources).

        Without a shared disk, outputs of upstream stages recorded before this run are pushed first (off the
        scheduler's loop); the task is submitted once they are on the remote.
        """
        if len(self._refs) + len(self._steps) >= self.settings.capacity:
            return False
        if self._handoff is None:
            self._start(job, self._remote, job.cmd, job.cwd, job.log, job.env, job.nice)
            return True
        unsent = self._handoff.unsent(job.key)
        if unsent:
            self._step("push", job, {"upstream": unsent}, self._handoff.push_inputs, unsent)
        else:
            self._start(job, self._own, self._handoff.spec(job.key, job.cmd), job.env)
        return True

    def _start(self, job: Job, remote: Any, *args: Any) -> None:
        r = job.resources
        gpus = r.gpus / r.gpu_sharing if r.gpus == 1 else r.gpus  # a shared GPU: a fraction of one
        ref = remote.options(
            num_cpus=r.cpus, num_gpus=gpus, memory=r.memory, name=job.key.rsplit(":", 1)[-1]
        ).remote(*args)
        self._refs[ref] = job

    def _step(self, kind: str, job: Job, info: dict[str, Any], fn: Any, *args: Any) -> None:
        def run() -> None:
            fn(job.key, *args, job.log, lambda pid: self._step_pids.__setitem__(job.key, pid))

        self._steps[self._pool.submit(run)] = (kind, job, info)

    def wait(self, timeout: float) -> list[Done]:
        """Tasks that ended within ``timeout`` (without a shared disk: once the coordinator has it back)."""
        if self._handoff is None:
            return self._collect(timeout)
        out = self._advance()
        if out:
            return out
        if self._refs:
            out = self._collect(min(timeout, 0.05) if self._steps else timeout)
        elif self._steps:
            wait_futures(list(self._steps), timeout=timeout, return_when=FIRST_COMPLETED)
        return out + self._advance()

    def _collect(self, timeout: float) -> list[Done]:
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
            gpus = tuple(g for g in info.get("gpus", "").split(",") if g)
            if self._handoff is not None:
                done = self._returned(job, info, tid, gpus)
                if done is not None:
                    out.append(done)
                continue
            code = info["returncode"]
            infra = f"ray worker's command killed by signal {-code}" if code < 0 else ""
            out.append(Done(job, None if infra else code, infra, info["host"], tid, gpus))
        return out

    def _returned(self, job: Job, info: dict[str, Any], tid: str, gpus: tuple[str, ...]) -> Done | None:
        """Take back a task run in a worker's own checkout: its outcome, or None while it is fetched."""
        host = info["host"]
        Path(job.log).parent.mkdir(parents=True, exist_ok=True)
        with open(job.log, "a", encoding="utf-8") as fh:
            fh.write(f"--- on {host}, in its own checkout (Ray task {tid}) ---\n{info['log']}")
            if not info["log"].endswith("\n"):
                fh.write("\n")
            fh.write("--- back on the coordinator ---\n")
        code, result = info["returncode"], info["result"]
        if code < 0:
            return Done(job, None, f"ray worker's command killed by signal {-code}", host, tid, gpus)
        if not result:
            why = f"the worker's hand-off process exited {code} without a result (see {job.log})"
            return Done(job, None, f"hand-off of {job.key} failed on {host}: {why}", host, tid, gpus)
        if result["ok"]:
            entry = {"key": result["key"], "value": result["value"]}
            where = {"host": host, "tid": tid, "gpus": gpus}
            self._step("receive", job, where, self._handoff.receive, entry)
            return None
        rc = result.get("returncode")
        if rc is not None and rc >= 0:
            return Done(job, rc, "", host, tid, gpus)  # the stage's own command failed: never retried
        reason = f"its command was killed by signal {-rc}" if rc is not None else result["error"]
        why = f"hand-off of {job.key} failed on {host} at '{result['step']}': {reason}"
        return Done(job, None, why, host, tid, gpus)

    def _advance(self) -> list[Done]:
        """Outcomes of the coordinator's steps that finished: tasks to submit, stages done or lost."""
        out = []
        for future in [f for f in self._steps if f.done()]:
            kind, job, info = self._steps.pop(future)
            self._step_pids.pop(job.key, None)
            exc = future.exception()
            if kind == "push":
                if exc is None:
                    self._handoff.sent.update(info["upstream"])
                    self._start(job, self._own, self._handoff.spec(job.key, job.cmd), job.env)
                else:
                    out.append(Done(job, None, _reason(job, exc)))
            elif exc is None:
                self._handoff.sent.add(job.key)
                out.append(Done(job, 0, "", info["host"], info["tid"], info["gpus"]))
            else:
                out.append(Done(job, None, _reason(job, exc), info["host"], info["tid"], info["gpus"]))
        return out

    def running(self) -> int:
        """Tasks in flight, and tasks whose result the coordinator is pushing or fetching."""
        return len(self._refs) + len(self._steps)

    def job_id(self, key: str) -> str:
        """Return the Ray task id."""
        for ref, job in self._refs.items():
            if job.key == key:
                return str(ref.task_id().hex()[:16])
        for kind, job, info in self._steps.values():
            if job.key == key and kind == "receive":
                return str(info["tid"])
        return ""

    def stop_leftovers(self, job_ids: list[str]) -> list[str]:
        """Stop nothing: a cluster started here died with the killed scheduler (and its reapers with it).

        A task on an external cluster cannot be reached without its ObjectRef; it is left to finish.
        """
        return []

    def shutdown(self) -> None:
        """Cancel tasks in flight (force: their workers are killed) and the coordinator's steps."""
        for ref in list(self._refs):
            self._ray.cancel(ref, force=True)
        self._refs.clear()
        for pid in list(self._step_pids.values()):
            kill_group(pid)
        self._pool.shutdown(wait=True, cancel_futures=True)
        self._steps.clear()
        self._pool = ThreadPoolExecutor(max_workers=_STEPS, thread_name_prefix="ray-handoff")


def _reason(job: Job, exc: BaseException) -> str:
    if isinstance(exc, HandoffError):
        return f"hand-off of {job.key} failed on the coordinator at '{exc.step}': {exc}"
    return f"hand-off of {job.key} failed on the coordinator: {type(exc).__name__}: {exc}"
