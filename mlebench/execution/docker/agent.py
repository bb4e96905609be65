"""Run one agent on one competition for one seed in a Docker container (the ``docker`` runner).

The container sees the agent contract and nothing else of the host: ``/home/data`` (a read-only bind mount
of the public split, with ``description.md``), ``/home/instructions.txt``, empty ``/home/submission``,
``/home/code`` and ``/home/logs``, the agent's own files in ``/home/agent`` (baked into its image) and the
``validate`` command, also served as MLE-bench v1 serves it (``localhost:5000/validate``, started by the
runner as its own user, with a call record the agent cannot touch; ``/home/validate_submission.sh``). The
private answers are never mounted, copied or named: the only host path the container is given is the public
split. It runs as the unprivileged uid 1000 with every capability dropped and ``no-new-privileges``, without
network unless the agent opts into ``egress`` (any public host) or ``llm`` (only its configured endpoints),
both through a per-cell logging proxy on networks of the cell's own (:mod:`.egress`), and under the
hardware profile's limits (CPUs, memory
without swap, shm, pids, GPUs as device requests). The wall-clock limit is enforced here: at the limit the
container is stopped (SIGTERM, then SIGKILL after a grace period) and the
cell is ``agent_timeout``; whatever submission exists then is kept.

Outputs are copied out of the stopped container: ``submission.csv`` through the archive API (refused by its
stat when too large), ``code/`` and ``logs/`` (volumes) by a collector that leaves oversized files out unread
(:mod:`.collect`), every tar member checked (:mod:`.extract`); the container is then removed. While the
agent runs, ``submission.csv`` is also copied out of the running container at the plan's snapshot marks,
with the same checks (:mod:`mlebench.execution.snapshots`). Engine failures are retried (bounded) and end as
``infra_error``; an agent's failure is recorded (``agent_error``), never retried and never raised.
"""

from __future__ import annotations

import json
import os
import shutil
import time
import traceback
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mlebench.execution import egress_tls, v1_agents
from mlebench.execution.contract import (
    AGENT_UID,
    CONTRACT_DIRS,
    ENTRYPOINT,
    INSTRUCTIONS,
    INSTRUCTIONS_PATH,
    LIMITS_ENFORCED,
    NO_NETWORK_ROUTE,
    OUTPUT_DIRS,
    PROXY_LOG,
    VALIDATION_SPEC_PATH,
    VALIDATIONS_LOG,
    VALIDATOR_UID,
    container_env,
    egress_facts,
    instructions_file,
    instructions_text,
    validation_spec,
)
from mlebench.execution.docker import collect, egress, extract, gvisor
from mlebench.execution.docker.engine import (
    InfraError,
    connect,
    engine_problem,
    is_engine_failure,
    read_only_files_tar,
    storage_limit_problem,
    with_retries,
)
from mlebench.execution.docker.images import ImageRef, agent_image, context_sources, env_context, env_image
from mlebench.execution.secrets import Secret, Secrets, agent_secret, redact_run
from mlebench.execution.snapshots import SNAPSHOTS_DIR, Copy, snapshotting
from mlebench.reporting.records import RunRecord
from mlebench_spec.cell import Cell
from mlebench_spec.errors import ConfigError
from mlebench_spec.files import utc_now
from mlebench_spec.network import NetworkPolicy
from mlebench_spec.params import AgentConfig, DockerSettings, Hardware

if TYPE_CHECKING:
    import docker

AGENT_USER = f"{AGENT_UID}:{AGENT_UID}"
VALIDATOR_USER = f"{VALIDATOR_UID}:{VALIDATOR_UID}"
"""The validation server's own user (``validator`` in the env image), not the agent's."""
VALIDATION_RECORD = "/var/lib/mlebench-validations/calls.jsonl"
"""Where the server records each call: a folder only the validator user can write."""
KILL_GRACE_SECS = 5
MAX_LOG_BYTES = 64 * 1024 * 1024


@dataclass(frozen=True)
class ContainerRunRecord(RunRecord):
    """What ``run.json`` holds for a cell the Docker runner ran.

    The first fields mean what they mean in :class:`mlebench.reporting.records.RunRecord` (``runner`` is
    ``docker``;
    ``agent_seconds`` is the container's run time, from start to exit or kill). In addition: ``reason`` (why
    the agent failed: exit code, out of memory, killed at the limit, or the infrastructure error);
    ``network`` (``none``, ``egress`` or ``llm``); ``egress`` (under ``llm`` and ``egress``: the allowed
    ``endpoints``, what the proxy ``allows``, the proxy and its image, and its ``access_log`` in the run
    dir; empty under ``none``); ``api_key_env`` (the name of the variable the agent's key came
    from, never its value; empty when none); ``images`` (tag, content-addressed id and build-context hash of
    the env and agent images, and the base image's name and id); ``docker`` (the settings, the engine's
    version, the container's uid); ``oom_killed``; ``submission_rejected`` (why a submission.csv that
    existed was not collected: a symlink, a folder, too large; empty otherwise); ``attempts`` (container
    attempts, > 1 only after engine failures); ``overhead_seconds`` (time spent on images, create, start,
    stop, extraction and removal, i.e. everything that is not the agent); ``log`` (the infrastructure
    log with a traceback, for ``infra_error``); ``validations`` (the validator's calls as the validation
    server recorded them, out of the agent's reach: ``{"calls", "record"}``, with the record's file in the
    run dir, or ``{"calls": null, "reason"}`` when there is no record).
    """

    reason: str = ""
    network: str = "none"
    egress: dict = field(default_factory=dict)
    api_key_env: str = ""
    images: dict = field(default_factory=dict)
    docker: dict = field(default_factory=dict)
    oom_killed: bool = False
    submission_rejected: str = ""
    attempts: int = 0
    overhead_seconds: dict = field(default_factory=dict)
    log: str = ""
    validations: dict = field(default_factory=dict)

    def rejected_submission(self) -> str:
        """Why a submission.csv that existed was not collected."""
        return self.submission_rejected or super().rejected_submission()

    def unisolated(self) -> str:
        """Return "": the agent ran in its own container, which never held the answers."""
        return ""

    def lineage(self) -> dict[str, str]:
        """Return the agent's images and network (and allow-list), for the grading record."""
        found = {f"{n}_image_id": self.images[n]["id"] for n in ("agent", "env") if n in self.images}
        if self.egress:
            if self.egress["endpoints"]:
                found["agent_endpoints"] = ",".join(self.egress["endpoints"])
            found["proxy_image_id"] = self.egress["proxy_image"]["id"]
            if self.egress.get("route"):
                found["agent_network_route"] = self.egress["route"]
        kernel = self.docker.get("kernel") or USER_SPACE_KERNELS.get(self.docker.get("runtime", ""))
        if kernel and kernel != "host":  # the agent's system calls met gVisor's kernel, not the host's
            found["agent_kernel"] = kernel
        return {**found, "agent_network": self.network}


USER_SPACE_KERNELS = {"runsc": "gVisor user-space kernel (runsc)"}
"""The OCI runtimes (``docker.runtime``) under which an agent meets a user-space kernel, not the host's."""


class Engine:
    """The container engine a runner drives through the Docker API: Docker's own here.

    Another engine that speaks the same API (Podman's service, :mod:`mlebench.execution.podman`) subclasses
    this: its name (the runner's), how to reach it, what it tells the run record and which of the hardware
    profile's limits it holds.
    """

    name = "docker"
    title = "Docker"
    record: type[ContainerRunRecord] = ContainerRunRecord

    def connect(self) -> docker.DockerClient:
        """Return a client for the engine (an :class:`InfraError` when none answers)."""
        return connect()

    def facts(self, client: docker.DockerClient) -> dict[str, Any]:
        """Return what the run record keeps of the engine (``docker`` in run.json, beside the settings)."""
        return {"engine_version": client.version().get("Version", "unknown"), "user": AGENT_USER}

    def limits_enforced(self, client: docker.DockerClient) -> list[str]:
        """Return the limits the engine holds the agent to (all of :data:`LIMITS_ENFORCED` here)."""
        return list(LIMITS_ENFORCED)

    route = egress.ROUTE
    """How this engine holds a proxied agent to its proxy (run.json's ``egress.route``)."""

    def egress(
        self,
        client: docker.DockerClient,
        proxy: ImageRef,
        relay: ImageRef,
        endpoints: list[str],
        cell_label: str,
        proxy_log: Path,
        allow_all: bool,
        tls: egress_tls.TlsPolicy | None = None,
    ) -> Any:
        """Return the context manager that makes (and removes) a proxied cell's way out: Docker's networks.

        ``relay`` is an image with Python (the env image), for engines whose way out needs one; ``tls`` the
        cell's inspection and refusals.
        """
        return egress.egress(client, proxy, endpoints, cell_label, proxy_log, allow_all, tls)


DOCKER = Engine()


class DockerRunner:
    """The ``docker`` runner: the agent in its own container, graded in a separate grader container."""

    name = "docker"
    grader = "docker"
    record = ContainerRunRecord

    def __init__(self, settings: DockerSettings, sleep: Callable[[float], None] = time.sleep) -> None:
        self.settings = settings
        self.sleep = sleep

    def problem(self) -> str | None:
        """Why no engine is usable here, or None when one answers."""
        return engine_problem()

    @staticmethod
    def image_sources(root: Path) -> list[str]:
        """Return the checkout files of the agents' base image (each agent's folder is a dep already)."""
        return context_sources(env_context(root), root)

    def run(self, cell: Cell) -> ContainerRunRecord:
        """Run the cell's agent in a container."""
        return run_docker(cell, self.settings, sleep=self.sleep)


@dataclass
class _Outcome:
    status: str = "infra_error"
    exit_code: int | None = None
    reason: str = ""
    oom_killed: bool = False
    started_at: str = ""
    finished_at: str = ""
    agent_seconds: float = 0.0
    submission: str = "missing"
    validations: dict[str, Any] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)
    overhead: dict[str, float] = field(default_factory=dict)
    traceback: str = ""


def run_docker(
    cell: Cell,
    settings: DockerSettings,
    *,
    sleep: Callable[[float], None] = time.sleep,
    engine: Engine = DOCKER,
) -> ContainerRunRecord:
    """Run the agent in a container; write ``{submission.csv,code/,logs/,agent_output.log}`` to its run dir.

    The validation spec comes from ``competitions/<id>/competition.yaml`` (none for an undeclared
    competition). Config problems (no public split, no Dockerfile, a missing base image, more CPUs than the
    engine has) raise :class:`ConfigError`; everything else ends in a recorded status. Returns the run
    record (the caller writes it: :func:`mlebench.execution.runners.run_cell`). ``engine`` is the engine
    the containers run in (Docker's unless a runner passes another).
    """
    agent, hardware = cell.running()
    competition_id, agent_name, root, public, out = (
        cell.competition_id,
        cell.agent,
        cell.root,
        cell.public,
        cell.run_dir,
    )
    if not public.is_dir():
        raise ConfigError(f"{public} is missing: run `dvc repro` for the prepare stage of {competition_id}")
    spec = validation_spec(competition_id, root)
    instructions_file(cell)  # a v1 text that does not match its pin is a ConfigError before anything starts
    secret: Secret | Secrets | None = agent_secret(agent, agent_name)  # unset: a ConfigError now
    if agent.v1 is not None:  # a v1 agent's ${{ secrets.NAME }}: unset, a ConfigError naming its line
        found = v1_agents.runtime(agent, agent_name, root).secrets
        if found:
            own = (secret,) if isinstance(secret, Secret) else ()
            secret = Secrets((*own, *found), tuple(own[0].env().items()) if own else ())
    out.mkdir(parents=True, exist_ok=True)
    _clear(out)
    images: dict[str, Any] = {}
    outcome = _Outcome()
    attempts = 0
    overhead: dict[str, float] = {}
    facts: dict[str, Any] = {}
    limits = list(LIMITS_ENFORCED)
    policy = agent.policy.held(engine.route if agent.policy.proxied else NO_NETWORK_ROUTE)
    egress_record: dict[str, Any] = {}
    try:
        client = with_retries(
            engine.connect, f"connecting to the {engine.title} engine", settings.infra_retries, sleep
        )
        facts = engine.facts(client)
        runtime, gvisor_facts = gvisor.engine_runtime(client, settings.runtime, agent.policy)
        facts.update(gvisor_facts)  # under gVisor: its kernel, the engine runtime, whose network stack
        limits = engine.limits_enforced(client)
        _check_hardware(client, hardware)
        storage_opt, facts["storage_limit"] = _storage_limit(client, hardware)
        egress.sweep(client)  # what killed runs left behind (their owner process is gone)
        t0 = time.monotonic()
        env_ref = env_image(client, settings, root)
        agent_ref = agent_image(client, agent_name, agent, env_ref, root, settings.infra_retries)
        proxy_ref = egress.proxy_image(client, settings, root) if policy.proxied else None
        overhead["images"] = round(time.monotonic() - t0, 3)
        images = {
            "base_image": {"name": settings.base_image, "id": client.images.get(settings.base_image).id},
            "env": env_ref.lineage(),
            "agent": agent_ref.lineage(),
        }
        tls = None
        if proxy_ref is not None:
            tls = egress_tls.cell_policy(competition_id, root)
            egress_record = egress_facts(policy, proxy_ref, tls)
        for attempt in range(settings.infra_retries + 1):
            attempts = attempt + 1
            try:
                outcome = _attempt(
                    client,
                    agent_ref,
                    cell,
                    spec,
                    runtime,
                    proxy_ref,
                    secret,
                    env_ref,
                    storage_opt,
                    engine,
                    tls,
                )
                break
            except Exception as exc:  # noqa: BLE001 - engine failures are retried, anything else re-raised
                if not is_engine_failure(exc):
                    raise
                _clear(out)
                outcome = _Outcome(
                    reason=f"container attempt {attempts}: {type(exc).__name__}: {exc}",
                    traceback=traceback.format_exc(),
                )
                if attempt < settings.infra_retries:
                    sleep(min(2.0 * 2**attempt, 30.0))
        outcome.overhead = {**overhead, **outcome.overhead}
    except Exception as exc:  # noqa: BLE001 - engine failures become infra_error, anything else re-raised
        if not is_engine_failure(exc):
            raise
        reason = str(exc) if isinstance(exc, InfraError) else f"engine failure: {type(exc).__name__}: {exc}"
        outcome = _Outcome(reason=reason, overhead=overhead, traceback=traceback.format_exc())
    log = ""
    if outcome.status == "infra_error":
        log_path = out / "infra_error.log"
        log_path.write_text(outcome.reason + "\n\n" + outcome.traceback, encoding="utf-8")
        log = log_path.name
    if secret is not None:
        _redact(outcome, out, secret)
    rejected = (
        next((n for n in outcome.notes if n.startswith("submission.csv:")), "")
        if outcome.submission == "refused"
        else ""
    )
    return engine.record.for_cell(
        cell,
        engine.name,
        status=outcome.status,
        exit_code=outcome.exit_code,
        started_at=outcome.started_at or utc_now(),
        finished_at=outcome.finished_at or utc_now(),
        agent_seconds=outcome.agent_seconds,
        limits_enforced=limits,
        submission_exists=outcome.submission == "copied",
        extraction_notes=outcome.notes,
        config=cell.config(engine.name, docker=settings.model_dump()),
        python="(the agent image's)",
        reason=outcome.reason,
        network=policy.kind,
        network_policy=policy,
        egress=egress_record,
        api_key_env=agent.api_key_env or "",
        images=images,
        docker={**settings.model_dump(), "kernel": USER_SPACE_KERNELS.get(settings.runtime, "host"), **facts},
        oom_killed=outcome.oom_killed,
        submission_rejected=rejected,
        attempts=attempts,
        overhead_seconds=outcome.overhead,
        log=log,
        validations=outcome.validations,
    )


def _attempt(
    client: docker.DockerClient,
    image: ImageRef,
    cell: Cell,
    spec: dict[str, Any] | None,
    runtime: str,
    proxy: ImageRef | None = None,
    secret: Secret | Secrets | None = None,
    env: ImageRef | None = None,
    storage_opt: dict[str, str] | None = None,
    engine: Engine = DOCKER,
    tls: egress_tls.TlsPolicy | None = None,
) -> _Outcome:
    agent = cell.running()[0]
    collector = env.id if env is not None else ""
    if proxy is None:
        return _run_container(client, image, cell, spec, runtime, secret, None, collector, storage_opt)
    t0 = time.monotonic()
    allow_all = agent.policy.allows_all
    log = cell.run_dir / PROXY_LOG
    label = _cell_label(cell)
    way_out = engine.egress(client, proxy, env or image, agent.endpoints, label, log, allow_all, tls)
    with way_out as sealed:
        setup = time.monotonic() - t0
        outcome = _run_container(client, image, cell, spec, runtime, secret, sealed, collector, storage_opt)
        t1 = time.monotonic()
    outcome.overhead["egress"] = round(setup + time.monotonic() - t1, 3)
    outcome.notes += sealed.notes
    return outcome


def _run_container(
    client: docker.DockerClient,
    image: ImageRef,
    cell: Cell,
    spec: dict[str, Any] | None,
    runtime: str,
    secret: Secret | Secrets | None,
    sealed: egress.WayOut | None,
    collector: str = "",
    storage_opt: dict[str, str] | None = None,
) -> _Outcome:
    """Run the agent's container; ``collector`` is the image that collects its folders (the env image)."""
    agent, hardware = cell.running()
    out = cell.run_dir
    outcome = _Outcome()
    spent = outcome.overhead
    container = None
    try:
        with _timed(spent, "create"):
            kwargs = _create_kwargs(image, cell, runtime, secret, sealed)
            if storage_opt:
                kwargs["storage_opt"] = storage_opt
            container = client.containers.create(**kwargs)
            container.put_archive("/", _runtime_files(agent, spec, instructions_file(cell)))
            if sealed is not None and sealed.files():  # the cell's CA, where its proxy inspects TLS
                container.put_archive("/", read_only_files_tar(sealed.files()))
            if cell.code_from is not None:  # the kept code to re-run (the reproduce stage)
                container.put_archive(CONTRACT_DIRS["CODE_DIR"], code_tar(cell.code_from))
        with _timed(spent, "start"):
            container.start()
            if sealed is not None:
                sealed.started(container, outcome.notes)
            _start_validator(container, outcome.notes)
        started = time.monotonic()
        outcome.started_at = utc_now()
        with snapshotting(
            out, cell.snapshots, hardware.time_limit_secs, started, _snapshot_copy(container)
        ) as snapper:
            timed_out = _wait(container, hardware.time_limit_secs, started)
        outcome.notes.extend(snapper.errors)
        outcome.agent_seconds = round(time.monotonic() - started, 3)
        if timed_out:
            with _timed(spent, "stop"):
                container.stop(timeout=KILL_GRACE_SECS)
                container.wait(timeout=KILL_GRACE_SECS * 4)
        outcome.finished_at = utc_now()
        container.reload()
        _classify(outcome, container.attrs["State"], timed_out, hardware)
        with _timed(spent, "extract"):
            _save_output(container, out / "agent_output.log", timed_out, hardware.time_limit_secs)
            outcome.submission = extract.fetch_file(
                container, "/home/submission/submission.csv", out / "submission.csv", outcome.notes
            )
            outcome.validations = _validations(container, out, outcome.notes)
        with _timed(spent, "collect"):
            collect.collect_trees(
                client,
                container,
                collector or image.id,
                {CONTRACT_DIRS["CODE_DIR"]: out / "code", CONTRACT_DIRS["LOGS_DIR"]: out / "logs"},
                outcome.notes,
                egress.labels("collector", _cell_label(cell)),
            )
    finally:
        if container is not None:
            with _timed(spent, "remove"):
                _remove(container, outcome.notes)
    return outcome


def _start_validator(container: Any, notes: list[str]) -> None:
    """Start the validation server in the agent's container as the validator user, recording every call.

    An ``exec`` of the engine: the server shares the agent's loopback (``localhost:5000``) and sees
    ``/home/data``, but runs as uid 1001 with an empty environment (no key), so the agent can neither kill
    it nor touch its record (:data:`VALIDATION_RECORD`). The entry point waits for it before the agent's
    command starts. A container that has already exited has nothing to validate (noted, not an error).
    """
    import docker.errors

    command = [
        "env",
        "-i",
        "PATH=/opt/venv/bin:/usr/bin:/bin",
        "LANG=C.UTF-8",
        f"DATA_DIR={CONTRACT_DIRS['DATA_DIR']}",
        "/opt/venv/bin/python",
        "-E",
        "-s",
        "/opt/mlebench/validator/validate.py",
        "--serve",
        "--record",
        VALIDATION_RECORD,
    ]
    try:
        container.exec_run(command, user=VALIDATOR_USER, detach=True)
    except docker.errors.APIError as exc:
        if "not running" not in str(exc).lower():
            raise
        notes.append("validation server not started: the container had already exited")


def _validations(container: Any, out: Path, notes: list[str]) -> dict[str, Any]:
    """Copy the validation server's call record to the run dir and count its calls."""
    dest = out / VALIDATIONS_LOG
    got = extract.fetch_file(container, VALIDATION_RECORD, dest, notes, max_bytes=64 * 1024 * 1024)
    if got != "copied":
        return {"calls": None, "reason": f"no call record from the validation server ({got})"}
    calls = 0
    with dest.open("rb") as fh:
        for line in fh:
            calls += line.startswith(b"{")
    return {"calls": calls, "record": VALIDATIONS_LOG}


def _snapshot_copy(container: Any) -> Copy:
    """Copy the running container's submission.csv with the final copy's checks (any-time snapshots)."""
    return lambda dest, notes: extract.fetch_file(
        container, "/home/submission/submission.csv", dest, notes, extract.MAX_FILE_BYTES
    )


def _cell_label(cell: Cell) -> str:
    return f"{cell.agent}/{cell.competition_id}/{cell.seed}"


def _create_kwargs(
    image: ImageRef,
    cell: Cell,
    runtime: str = "runc",
    secret: Secret | Secrets | None = None,
    sealed: egress.WayOut | None = None,
) -> dict[str, Any]:
    from docker.types import DeviceRequest, LogConfig, Mount

    agent, hardware = cell.running()
    competition_id, agent_name, seed = cell.competition_id, cell.agent, cell.seed
    v1 = v1_agents.runtime(agent, agent_name, cell.root)  # its variables; the runner's own win
    environment = {**v1.env, **container_env(cell)}
    if sealed is not None:
        environment.update(sealed.env())
    if secret is not None:
        environment.update(secret.env())
    environment["MLEBENCH_VALIDATION_SERVER"] = "external"  # _start_validator starts it, as its own user
    kwargs: dict[str, Any] = dict(
        image=image.id,
        entrypoint=sealed.entrypoint([ENTRYPOINT]) if sealed is not None else [ENTRYPOINT],
        command=v1.command,
        working_dir=CONTRACT_DIRS["AGENT_DIR"],
        user=AGENT_USER,
        runtime=runtime,
        environment=environment,
        name=f"mlebench-{agent_name}-{competition_id}-s{seed}-{uuid.uuid4().hex[:8]}"[:200],
        labels=egress.labels("agent", _cell_label(cell)),
        detach=True,
        init=True,
        stdin_open=False,
        network_mode=_network_mode(agent.policy, sealed),
        mounts=[
            Mount(
                target=CONTRACT_DIRS["DATA_DIR"],
                source=str(cell.public.resolve()),
                type="bind",
                read_only=True,
            ),
            # The writable outputs are (anonymous) volumes, so the collector can read them by size alone
            # after the agent stops (:mod:`.collect`); removed with the container.
            *(Mount(target=CONTRACT_DIRS[d], source=None, type="volume") for d in OUTPUT_DIRS),
            *(sealed.mounts() if sealed is not None else []),
        ],
        nano_cpus=int(hardware.cpus * 1e9),
        mem_limit=hardware.memory,
        memswap_limit=hardware.memory,
        shm_size=hardware.shm_size,
        pids_limit=hardware.pids,
        cap_drop=["ALL"],
        security_opt=gvisor.security_opt(runtime),  # under gVisor: a seccomp profile it applies as meant
        log_config=LogConfig(type="json-file", config={"max-size": "32m", "max-file": "2"}),
    )
    kwargs.update(gvisor.container_limits(runtime, hardware.pids))  # pids held by gVisor's kernel there
    if sealed is None or sealed.own_namespace():  # in the sandbox's namespace, its hostname ("agent")
        kwargs["hostname"] = "agent"
    if hardware.gpus > 0:
        assigned = [g for g in os.environ.get("CUDA_VISIBLE_DEVICES", "").split(",") if g]
        kwargs["device_requests"] = [  # the devices an executor assigned, else any N of the engine's
            DeviceRequest(device_ids=assigned, capabilities=[["gpu"]])
            if assigned
            else DeviceRequest(count=hardware.gpus, capabilities=[["gpu"]])
        ]
    return kwargs


def _network_mode(policy: NetworkPolicy, sealed: egress.WayOut | None) -> str:
    if policy.proxied:
        if sealed is None:
            raise ValueError(f"network {policy.kind!r} needs the cell's egress sandbox")
        return sealed.network_mode()
    return "none"


def _runtime_files(
    agent: AgentConfig, spec: dict[str, Any] | None, instructions: Path = INSTRUCTIONS
) -> bytes:
    """Return a tar (extracted at /) of the instructions and the validation spec, root-owned, read-only."""
    files = {INSTRUCTIONS_PATH: instructions_text(agent, instructions)}
    if spec is not None:
        files[VALIDATION_SPEC_PATH] = json.dumps(spec, indent=2, sort_keys=True) + "\n"
    return read_only_files_tar(files)


def code_tar(folder: Path) -> bytes:
    """Return a tar of ``folder``'s regular files and folders, owned by the agent's user, for ``CODE_DIR``.

    Symlinks and special files are left out (the runners never collect them into a run's ``code/``).
    """
    import io
    import tarfile

    if not folder.is_dir():
        raise ConfigError(f"the kept code {folder} to re-run is not a folder")
    uid, gid = (int(part) for part in AGENT_USER.split(":"))
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w") as tar:
        for item in sorted(folder.rglob("*")):
            if item.is_symlink() or not (item.is_dir() or item.is_file()):
                continue
            info = tar.gettarinfo(str(item), arcname=item.relative_to(folder).as_posix())
            info.uid, info.gid, info.uname, info.gname = uid, gid, "agent", "agent"
            info.mode = 0o755 if item.is_dir() else 0o644
            if item.is_dir():
                tar.addfile(info)
            else:
                with item.open("rb") as fh:
                    tar.addfile(info, fh)
    return buf.getvalue()


def _wait(container: Any, limit: int, started: float) -> bool:
    """Wait for the container to exit; True when the wall-clock limit ran out first."""
    import requests.exceptions

    while True:
        remaining = limit - (time.monotonic() - started)
        if remaining <= 0:
            return True
        try:
            container.wait(timeout=max(1, int(remaining + 0.999)))
            return False
        except requests.exceptions.ConnectionError:
            if time.monotonic() - started < limit:  # not our timeout: a genuine engine failure
                container.reload()  # raises if the engine is gone; otherwise keep waiting
                if container.status != "running":
                    return False


def _classify(outcome: _Outcome, state: dict[str, Any], timed_out: bool, hardware: Hardware) -> None:
    outcome.oom_killed = bool(state.get("OOMKilled"))
    if timed_out:
        outcome.status, outcome.reason = (
            "agent_timeout",
            f"killed at the wall-clock limit of {hardware.time_limit_secs} s",
        )
        return
    outcome.exit_code = int(state.get("ExitCode", -1))
    if outcome.exit_code == 0:
        outcome.status = "ok"
    elif outcome.oom_killed:
        outcome.status = "agent_error"
        outcome.reason = f"killed by the out-of-memory killer at the memory limit of {hardware.memory}"
    else:
        outcome.status, outcome.reason = "agent_error", f"agent exited with code {outcome.exit_code}"


def _save_output(container: Any, path: Path, timed_out: bool, limit: int) -> None:
    written = 0
    with path.open("wb") as fh:
        for chunk in container.logs(stdout=True, stderr=True, stream=True, follow=False):
            if written + len(chunk) > MAX_LOG_BYTES:
                fh.write(f"\n[runner] output truncated at {MAX_LOG_BYTES} bytes\n".encode())
                break
            fh.write(chunk)
            written += len(chunk)
        if timed_out:
            fh.write(f"\n[runner] killed at the wall-clock limit of {limit} s\n".encode())


def _remove(container: Any, notes: list[str]) -> None:
    try:
        container.remove(force=True, v=True)
    except Exception as exc:  # noqa: BLE001 - a leftover container must not cost the cell its result
        if not is_engine_failure(exc):
            raise
        notes.append(f"container {container.name}: not removed ({exc})")


def _storage_limit(client: docker.DockerClient, hardware: Hardware) -> tuple[dict[str, str] | None, str]:
    """Return the create option that limits the writable layer to ``hardware.disk``, and what run.json says.

    Only where the engine's storage driver can enforce it (:func:`.engine.storage_limit_problem`);
    otherwise no option and the reason, recorded (the outputs are bounded at collection either way).
    """
    if not hardware.disk:
        return None, "none: the hardware profile sets no disk limit"
    problem = storage_limit_problem(client.info())
    if problem:
        return None, f"none: {problem} (asked for {hardware.disk})"
    return {"size": hardware.disk}, hardware.disk


def _check_hardware(client: docker.DockerClient, hardware: Hardware) -> None:
    cpus = int(client.info().get("NCPU", 0))
    if cpus and hardware.cpus > cpus:
        raise ConfigError(
            f"hardware profile {hardware.name!r} asks for cpus={hardware.cpus} but the Docker engine has "
            f"{cpus}: pick a smaller profile (conf/hardware/) or a bigger machine"
        )


def _redact(outcome: _Outcome, out: Path, secret: Secret | Secrets) -> None:
    """Remove the key's value from everything the run leaves: the run dir's files and the outcome's text."""
    outcome.notes = redact_run(out, secret, outcome.notes)
    outcome.reason, outcome.traceback = secret.redact(outcome.reason), secret.redact(outcome.traceback)


def _clear(out: Path) -> None:
    for name in (
        "submission.csv",
        "agent_output.log",
        "run.json",
        "infra_error.log",
        PROXY_LOG,
        VALIDATIONS_LOG,
    ):
        (out / name).unlink(missing_ok=True)
    for name in ("code", "logs", SNAPSHOTS_DIR):
        if (out / name).is_symlink():
            (out / name).unlink()
        elif (out / name).exists():
            shutil.rmtree(out / name)


@contextmanager
def _timed(into: dict[str, float], name: str) -> Iterator[None]:
    t0 = time.monotonic()
    try:
        yield
    finally:
        into[name] = round(into.get(name, 0.0) + time.monotonic() - t0, 3)
