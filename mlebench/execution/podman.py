"""The ``podman`` runner: the Docker runner's containers, run by Podman instead of Docker's daemon.

Podman serves the Docker API (``podman system service``), so this runner is the Docker runner
(:mod:`mlebench.execution.docker.agent`) pointed at Podman: the same agent contract (v1's included), the same
images (the same Dockerfiles and content-hash tags), network ``none``, grading in a separate grader container
that alone mounts the answers, and the same statuses and run records.

Where the engine is: ``CONTAINER_HOST`` (Podman's own variable, e.g. an ordinary user's
``unix:///run/user/<uid>/podman/podman.sock``) when set; else, run by an ordinary user, that user's rootless
service (its socket under ``$XDG_RUNTIME_DIR``); else, run as root, root's own rootful service (Podman's
rootful socket, :data:`ROOTFUL_URL`). When nothing answers there and ``podman`` is installed, the runner
starts ``podman system service`` for the caller (root's or the user's), which exits by itself after
:data:`SERVICE_IDLE_SECS` idle. Whichever it is, the agent's container is the same: uid 1000, every
capability dropped, ``no-new-privileges``, our seccomp profile, no network (proxied networks relayed).

Images: a tag Podman does not have is loaded from Docker's engine when one answers and has it (``docker
save`` into ``podman load``, through both APIs: the image ids are the same), else Podman builds it from the
same Dockerfile.

The hardware limits are cgroup limits, and which ones Podman can hold is in its ``info``
(:func:`cgroup_limits`). Rootful Podman's cgroup manager makes a cgroup per container and holds ``cpus``,
``memory`` and ``pids`` on cgroups v1 and v2, as Docker's engine does (the runner reads an out-of-memory kill
from the container's cgroup, :class:`OomWatch`), so its cells count as Docker's do. Rootless Podman needs
controllers the user owns: on cgroups v2 with ``cpu``, ``memory`` and ``pids`` delegated to the user every
limit holds; without them (cgroups v1, or v2 without delegation) Podman ignores ``cpus`` and ``memory``
silently (on v1 the container's processes stay in the cgroup of the service that started them); the runner
then holds ``pids`` as ``RLIMIT_NPROC`` (``prlimit`` before the entry point; counted per user namespace and
uid, so shared by the user's concurrent containers), and the run record says which limits were not enforced
and why. Such a cell is not comparable with Docker's under the same hardware profile, so it counts as not
isolated (:meth:`PodmanRunRecord.unisolated`), and the report leaves it out of the headline as it leaves out
the local runner's. (Holding a rootless cell on v1 in a cgroup root made for it would put the Podman service,
conmon, the proxy and the collector under the agent's limits too, and leave an out-of-memory kill unseen by
Podman: root has the rootful service instead.)

Networks ``egress`` and ``llm`` leave only through the cell's own logging proxy, as under Docker, but not by
Docker's internal bridge network (rootless bridge networks need Podman's rootless network namespace, which
does not come up everywhere; rootful Podman takes the same route, so one way is tested): the agent's
container has no network at all, and a relay on its loopback reaches the proxy through a UNIX socket
(:mod:`mlebench.execution.docker.relayed`).
"""

from __future__ import annotations

import functools
import json
import os
import posixpath
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mlebench.execution import seccomp
from mlebench.execution.contract import LIMITS_ENFORCED, limits_missing
from mlebench.execution.docker import egress, relayed
from mlebench.execution.docker.agent import (
    AGENT_USER,
    VALIDATOR_USER,
    ContainerRunRecord,
    DockerRunner,
    Engine,
    run_docker,
)
from mlebench.execution.docker.engine import InfraError, engine_problem
from mlebench.execution.docker.images import ImageRef
from mlebench_spec.cell import Cell

if TYPE_CHECKING:
    import docker

HOST_ENV = "CONTAINER_HOST"
ROOTFUL_URL = "unix:///run/podman/podman.sock"
"""Root's own (rootful) Podman service: Podman's rootful socket, used when the runner runs as root."""
SERVICE_IDLE_SECS = 120
SERVICE_START_SECS = 30
PING_TIMEOUT_SECS = 5
API_TIMEOUT_SECS = 600
CGROUP_LIMITS = {"cpu": "cpus", "memory": "memory (no swap)", "pids": "pids"}
"""Which cgroup controller holds which of :data:`LIMITS_ENFORCED`."""
NPROC_LIMIT = "pids (RLIMIT_NPROC, per user)"
_MODE_SYMLINK = 1 << 27
"""Go's os.ModeSymlink, in the mode of the archive API's stat header."""
_LINK_SCAN_MEMBERS = 10_000


def socket_url() -> str:
    """Return the Podman service's address: ``CONTAINER_HOST``, else the caller's own (root's is rootful)."""
    if os.environ.get(HOST_ENV):
        return os.environ[HOST_ENV]
    if os.getuid() == 0:
        return ROOTFUL_URL
    runtime = os.environ.get("XDG_RUNTIME_DIR") or f"/run/user/{os.getuid()}"
    if not os.access(runtime, os.W_OK):
        runtime = os.path.join(tempfile.gettempdir(), f"mlebench-podman-{os.getuid()}")
    return f"unix://{runtime}/podman/podman.sock"


def _ping(url: str, timeout: int) -> docker.DockerClient:
    client = _client_class()(base_url=url, timeout=timeout, version="1.41")  # no version negotiation
    client.socket_url = url
    client.ping()
    return client


def connect(timeout: int = API_TIMEOUT_SECS, start: bool = True) -> docker.DockerClient:
    """Return a client for the Podman service, starting the caller's own when none answers (see above).

    Raises
    ------
    InfraError
        If no service answers and none can be started here (``CONTAINER_HOST`` names one, no podman).

    """
    url = socket_url()
    try:
        return _ping(url, timeout)
    except Exception as exc:  # noqa: BLE001 - docker raises DockerException, requests errors, OSError
        first = f"{type(exc).__name__}: {exc}"
    if os.environ.get(HOST_ENV):
        raise InfraError(f"no Podman service answers at {HOST_ENV}={url}: {first}")
    if not start or shutil.which("podman") is None:
        raise InfraError(
            f"no Podman service answers at {url} ({first})"
            + ("" if shutil.which("podman") else "; podman is not installed (apt-get install podman uidmap)")
        )
    _start_service(url)
    deadline = time.monotonic() + SERVICE_START_SECS
    while True:
        try:
            return _ping(url, timeout)
        except Exception as exc:  # noqa: BLE001 - as above
            if time.monotonic() > deadline:
                raise InfraError(f"podman system service did not answer at {url}: {exc}") from None
            time.sleep(0.3)


def _start_service(url: str) -> None:
    """Start ``podman system service`` for this user (root's: rootful) in a session of its own; exits idle."""
    path = Path(url.removeprefix("unix://"))
    path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
    log = path.parent / "service.log"
    with log.open("ab") as fh:
        subprocess.Popen(  # noqa: S603 - a fixed command line
            ["podman", "system", "service", f"--time={SERVICE_IDLE_SECS}", url],
            cwd=path.parent,  # conmon writes an ``oom`` file into it (OomWatch): never the caller's checkout
            stdin=subprocess.DEVNULL,
            stdout=fh,
            stderr=fh,
            start_new_session=True,
        )


def podman_problem() -> str | None:
    """Why no Podman is usable here, or None when one answers (started for the caller if need be)."""
    try:
        connect(timeout=PING_TIMEOUT_SECS).close()
    except InfraError as exc:
        return str(exc)
    return None


def libpod_info(client: docker.DockerClient) -> dict[str, Any]:
    """Return Podman's own ``info`` (its native API, beside the Docker one): rootless, cgroups, version."""
    response = client.api.get(f"{client.api.base_url}/v4.0.0/libpod/info")
    response.raise_for_status()
    return response.json()


def cgroup_limits(info: dict[str, Any]) -> set[str]:
    """Return which of cpus, memory, pids the engine can hold containers to, from its ``info``.

    Those whose cgroup controllers Podman names as usable (``cgroupControllers``): rootful, the host's (on
    cgroups v1 and v2; every one where a Podman too old to say); rootless on cgroups v2, those delegated to
    the user; rootless on cgroups v1, none.

    >>> sorted(cgroup_limits({"host": {"security": {"rootless": True}, "cgroupVersion": "v1"}}))
    []
    >>> sorted(cgroup_limits({"host": {"security": {"rootless": True}, "cgroupVersion": "v2",
    ...                                "cgroupControllers": ["memory", "pids"]}}))
    ['memory (no swap)', 'pids']
    >>> sorted(cgroup_limits({"host": {"security": {"rootless": False}, "cgroupVersion": "v1",
    ...                                "cgroupControllers": ["cpuset", "cpu", "memory", "pids"]}}))
    ['cpus', 'memory (no swap)', 'pids']
    """
    host = info["host"]
    rootless = host["security"]["rootless"]
    if rootless and host.get("cgroupVersion") != "v2":
        return set()
    controllers = host.get("cgroupControllers")
    if controllers is None and not rootless:
        controllers = list(CGROUP_LIMITS)
    return {CGROUP_LIMITS[c] for c in controllers or [] if c in CGROUP_LIMITS}


@functools.cache
def _client_class() -> type:
    """Return the docker SDK's client for Podman: images from Docker, pids as an rlimit, its archive.

    Images Podman lacks are loaded from Docker's engine; ``pids_limit`` without a pids controller becomes
    ``prlimit --nproc`` before the entry point; the archive API's stat header is read as Docker's means it.
    """
    import docker
    import docker.errors
    from docker.models.containers import Container, ContainerCollection
    from docker.models.images import ImageCollection

    class Images(ImageCollection):
        def get(self, name: str) -> Any:
            try:
                return super().get(name)
            except docker.errors.ImageNotFound:
                if not load_from_docker(self.client, name):
                    raise
            return super().get(name)

    class PodmanContainer(Container):
        def start(self, *args: Any, **kwargs: Any) -> Any:
            started = super().start(*args, **kwargs)
            if "memory (no swap)" in self.client.held:  # an OOM kill to watch for (see OomWatch)
                super().reload()
                watch = OomWatch.of(self.id, int(self.attrs["State"].get("Pid") or 0))
                if watch is not None:
                    _OOM_WATCHES[self.id] = watch
            return started

        def reload(self) -> None:
            super().reload()
            watch = _OOM_WATCHES.get(self.id)
            if watch is None or self.attrs["State"].get("Running"):
                return
            del _OOM_WATCHES[self.id]
            if watch.finish():
                self.attrs["State"]["OOMKilled"] = True

        def get_archive(self, path: str, *args: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
            # Podman names the resolved path in linkTarget for every file; only the mode tells a symlink.
            # It also follows a symlink at ``path``: one into a mount (gone once the container stopped)
            # is "not found", so the parent's archive is read to tell a dangling link from a missing file.
            try:
                chunks, stat = super().get_archive(path, *args, **kwargs)
            except docker.errors.NotFound:
                target = self._link_target(path)
                if target is None:
                    raise
                mode = _MODE_SYMLINK | 0o777
                return iter(()), {"name": posixpath.basename(path), "mode": mode, "linkTarget": target}
            if not int(stat.get("mode", 0)) & _MODE_SYMLINK:
                stat = {**stat, "linkTarget": ""}
            return chunks, stat

        def _link_target(self, path: str) -> str | None:
            import tarfile

            from mlebench.execution.docker.extract import _ChunkReader

            parent, name = posixpath.split(path.rstrip("/"))
            try:
                chunks, _ = super().get_archive(parent or "/")
            except docker.errors.NotFound:
                return None
            # Docker names the members under the folder's name ("submission/x"), Podman's service from an
            # empty root ("/x"): either names the file at ``path``
            wanted = {f"{posixpath.basename(parent)}/{name}" if parent not in ("", "/") else name, f"/{name}"}
            with tarfile.open(fileobj=_ChunkReader(chunks), mode="r|") as tar:
                for count, member in enumerate(tar):
                    if member.name in wanted:
                        return member.linkname if member.issym() else None
                    if count > _LINK_SCAN_MEMBERS:
                        break
            return None

    class Containers(ContainerCollection):
        model = PodmanContainer

        def create(self, image: str, command: Any = None, **kwargs: Any) -> Any:
            if (kwargs.get("labels") or {}).get(egress.ROLE) == "agent":  # Docker's refusals, not Podman's
                kwargs["security_opt"] = [*kwargs.get("security_opt", []), f"seccomp={seccomp_profile()}"]
            pids = kwargs.get("pids_limit")
            if pids and "pids" not in self.client.held:
                wrap = ["prlimit", f"--nproc={int(pids)}"]
                if kwargs.get("entrypoint"):
                    kwargs["entrypoint"] = [*wrap, *kwargs["entrypoint"]]
                elif command:
                    command = [*wrap, *command]
            if not self.client.info_libpod["host"]["security"]["rootless"]:
                kwargs["ulimits"] = inherited_rlimits(kwargs.get("ulimits") or [], self.client.rlimits)
            return super().create(image, command, **kwargs)

    class PodmanClient(docker.DockerClient):
        """A docker SDK client for a Podman service."""

        @property
        def info_libpod(self) -> dict[str, Any]:
            return _facts(self, "libpod info", libpod_info)

        def info(self) -> dict[str, Any]:
            return _facts(self, "info", lambda client: docker.DockerClient.info(client))

        @property
        def rlimits(self) -> dict[str, tuple[int, int]]:
            return _facts(self, "rlimits", lambda client: service_rlimits(client.socket_url))

        @property
        def held(self) -> set[str]:
            return cgroup_limits(self.info_libpod)

        @property
        def images(self) -> Images:
            return Images(client=self)

        @property
        def containers(self) -> Containers:
            return Containers(client=self)

    return PodmanClient


class OomWatch(threading.Thread):
    """Counts the out-of-memory kills in a running container's own memory cgroup, until it is removed.

    Podman 4.3 with conmon 2.1.6 (Debian bookworm's) never reports ``OOMKilled``: conmon sees the kill but
    writes its ``oom`` file into its working directory, not where Podman looks. The runner reads the
    kernel's own counter instead (cgroup v1 ``memory.oom_control``, v2 ``memory.events``: ``oom_kill``),
    every :data:`OOM_POLL_SECS` while the container runs; the counter only grows, and the cgroup outlives
    the killed process until Podman's clean-up after the exit, so a kill is seen. Only where this process
    sees the container's cgroup (the same host and pid namespace: the cgroup path names the container).
    """

    def __init__(self, events: Path) -> None:
        super().__init__(daemon=True, name=f"oom-watch {events.parent.name}")
        self.events, self.kills, self.done = events, 0, threading.Event()

    @classmethod
    def of(cls, container_id: str, pid: int) -> OomWatch | None:
        """Start watching the memory cgroup of process ``pid``, when it is container ``container_id``'s."""
        try:
            lines = Path(f"/proc/{pid}/cgroup").read_text(encoding="utf-8").splitlines() if pid else []
        except OSError:
            return None
        found = {ctl: path for _, ctls, path in (ln.split(":", 2) for ln in lines) for ctl in ctls.split(",")}
        if "memory" in found:
            events = Path("/sys/fs/cgroup/memory") / found["memory"].lstrip("/") / "memory.oom_control"
        else:
            events = Path("/sys/fs/cgroup") / found.get("", "").lstrip("/") / "memory.events"
        if container_id not in str(events) or not events.is_file():
            return None
        watch = cls(events)
        watch.start()
        return watch

    def _read(self) -> bool:
        try:
            text = self.events.read_text(encoding="utf-8")
        except OSError:  # the cgroup is gone: the count read last is the last
            return False
        for line in text.splitlines():
            key, _, value = line.partition(" ")
            if key == "oom_kill" and value.strip().isdigit():
                self.kills = max(self.kills, int(value))
        return True

    def run(self) -> None:
        """Read the counter until the cgroup is gone or :meth:`finish` is called."""
        while self._read() and not self.done.wait(OOM_POLL_SECS):
            pass

    def finish(self) -> bool:
        """Stop watching (the container has stopped): whether the kernel killed a process for memory."""
        self.done.set()
        self.join(timeout=5)
        self._read()
        return self.kills > 0


OOM_POLL_SECS = 0.05
_OOM_WATCHES: dict[str, OomWatch] = {}
"""The running containers' watches, by container id (:meth:`PodmanContainer.reload` ends them)."""


INHERITED_RLIMITS = {"nofile": "Max open files", "nproc": "Max processes"}
"""The rlimits a rootful Podman container gets from the service, as a Docker container gets its daemon's
(their lines in ``/proc/<pid>/limits``)."""


def service_rlimits(url: str) -> dict[str, tuple[int, int]]:
    """Return the service's own ``nofile`` and ``nproc`` limits (soft, hard), read where it listens.

    The service is found by the socket's peer credentials (``SO_PEERCRED``: the process that listens); where
    that cannot be read (not a local socket, no such process to read), this process's own limits.
    """
    import resource
    import socket
    import struct

    own = {
        name: resource.getrlimit(getattr(resource, f"RLIMIT_{name.upper()}")) for name in INHERITED_RLIMITS
    }
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(PING_TIMEOUT_SECS)
            sock.connect(url.removeprefix("unix://"))
            pid = struct.unpack("3i", sock.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))[0]
        lines = Path(f"/proc/{pid}/limits").read_text(encoding="utf-8").splitlines()
    except (OSError, ValueError):
        return own
    found = dict(own)
    for name, title in INHERITED_RLIMITS.items():
        for line in lines:
            if line.startswith(title):
                soft, hard = (
                    resource.RLIM_INFINITY if v == "unlimited" else int(v)
                    for v in line[len(title) :].split()[:2]
                )
                found[name] = (soft, hard)
    return found


def inherited_rlimits(given: list[Any], service: dict[str, tuple[int, int]]) -> list[Any]:
    """Return ``given`` plus the service's own ``nofile`` and ``nproc`` limits where it names none.

    Rootful Podman sets both to 1048576 in every container it creates, above its own limits, which the OCI
    runtime can only do with ``CAP_SYS_RESOURCE``: where root lacks it (a machine that is itself a
    container, like this project's), no container starts ("error setting rlimit ... operation not
    permitted"). Docker's containers inherit the daemon's limits; these inherit the service's.
    """
    from docker.types import Ulimit

    named = {u["Name"] if isinstance(u, dict) else u.name for u in given}
    own = [
        Ulimit(name=name, soft=-1 if soft < 0 else soft, hard=-1 if hard < 0 else hard)
        for name, (soft, hard) in service.items()
        if name not in named
    ]
    return [*given, *own]


@functools.cache
def seccomp_profile() -> str:
    """Write the agent's seccomp profile (:func:`mlebench.execution.seccomp.oci_profile`) once; its path.

    Podman's own default allows what Docker's refuses (``unshare``, ``clone`` of a user namespace: an agent
    nested one), so the agent's container gets ours. Podman's Docker API reads ``seccomp=`` as a path (the
    Docker engine, as the profile itself), opened by the service's user: a folder and file all may read.
    """
    folder = Path(tempfile.mkdtemp(prefix="mlebench-seccomp-"))
    folder.chmod(0o755)
    path = folder / "agent.json"
    path.write_text(json.dumps(seccomp.oci_profile(), indent=1), encoding="utf-8")
    path.chmod(0o644)
    return str(path)


_FACTS: dict[tuple[str, str], Any] = {}
"""Podman's answers that do not change while this process runs (each costs it seconds: it runs helpers)."""


def _facts(client: docker.DockerClient, what: str, ask: Callable[[docker.DockerClient], Any]) -> Any:
    key = (getattr(client, "socket_url", ""), what)
    if key not in _FACTS:
        _FACTS[key] = ask(client)
    return _FACTS[key]


def load_from_docker(client: docker.DockerClient, name: str) -> bool:
    """Load image ``name`` into Podman from Docker's engine (``docker save`` → ``podman load``).

    Returns False when no Docker engine answers or it has no such image (the caller then builds it).
    """
    import docker.errors

    from mlebench.execution.docker.engine import connect as docker_connect

    if engine_problem() is not None:
        return False
    source = docker_connect()
    try:
        image = source.images.get(name)
    except docker.errors.ImageNotFound:
        return False
    finally:
        source.close()
    with tempfile.TemporaryFile(prefix="mlebench-image-") as fh:
        for chunk in image.save(named=name):
            fh.write(chunk)
        fh.seek(0)
        client.api.load_image(fh)
    return True


@dataclass(frozen=True)
class PodmanRunRecord(ContainerRunRecord):
    """What ``run.json`` holds for a cell the Podman runner ran: the Docker runner's record.

    ``runner`` is ``podman``; ``docker`` holds the settings and the engine's facts (``engine``: podman,
    ``engine_version``, ``rootless``, ``cgroup_version``, ``limits_not_enforced``); ``limits_enforced``
    names only the limits Podman held.
    """

    def unisolated(self) -> str:
        """Return why the cell is not comparable ("" when Podman held every limit Docker holds)."""
        missing = limits_missing(self.limits_enforced)
        if not missing:
            return ""
        rootless = self.docker.get("rootless", True)
        where = "delegated to the user" if rootless else "on the host"
        return (
            f"{'rootless' if rootless else 'rootful'} Podman did not hold the agent to {', '.join(missing)} "
            f"(cgroups {self.docker.get('cgroup_version', '?')} without those controllers {where}): the "
            "hardware profile was not enforced, so the cell is not comparable with isolated ones"
        )

    def lineage(self) -> dict[str, str]:
        """Return the Docker runner's lineage plus the runtime and its rootless-ness."""
        return {
            **super().lineage(),
            "agent_runtime": "podman",
            "agent_rootless": str(bool(self.docker.get("rootless"))).lower(),
        }


class PodmanEngine(Engine):
    """Podman's service, as the Docker runner's engine."""

    name = "podman"
    title = "Podman"
    record = PodmanRunRecord

    def connect(self) -> docker.DockerClient:
        """Return a client for the Podman service (started for the caller if need be)."""
        return connect()

    def facts(self, client: docker.DockerClient) -> dict[str, Any]:
        """Return the engine, its version, rootless-ness, cgroup version and the limits it cannot hold."""
        info = client.info_libpod
        host = info["host"]
        return {
            "engine_version": info.get("version", {}).get("Version", "unknown"),
            "user": AGENT_USER,
            "engine": "podman",
            "rootless": bool(host["security"]["rootless"]),
            "cgroup_version": host.get("cgroupVersion", ""),
            "limits_not_enforced": [
                limit for limit in LIMITS_ENFORCED if limit not in self.limits_enforced(client)
            ],
        }

    route = relayed.ROUTE

    def egress(
        self,
        client: docker.DockerClient,
        proxy: ImageRef,
        relay: ImageRef,
        endpoints: list[str],
        cell_label: str,
        proxy_log: Path,
        allow_all: bool,
        tls: Any = None,
    ) -> Any:
        """Return the relayed way out (:mod:`.relayed`): rootless Podman cannot make the internal network."""
        return relayed.relayed(
            client,
            proxy,
            relay,
            endpoints,
            cell_label,
            proxy_log,
            allow_all,
            validator_user=VALIDATOR_USER,
            tls=tls,
        )

    def limits_enforced(self, client: docker.DockerClient) -> list[str]:
        """Return the limits held: those the user's cgroups give, ``pids`` as an rlimit otherwise."""
        held = client.held
        out = [limit for limit in LIMITS_ENFORCED if limit not in CGROUP_LIMITS.values() or limit in held]
        if "pids" not in held:
            out.append(NPROC_LIMIT)
        return out


PODMAN = PodmanEngine()


class PodmanRunner(DockerRunner):
    """The ``podman`` runner: the agent in a Podman container (rootless, or root's), graded in another."""

    name = "podman"
    grader = "podman"
    record = PodmanRunRecord

    def problem(self) -> str | None:
        """Why no Podman service is usable here, or None."""
        return podman_problem()

    def run(self, cell: Cell) -> ContainerRunRecord:
        """Run the cell's agent in a Podman container (``egress`` and ``llm`` relayed: :mod:`.relayed`)."""
        return run_docker(cell, self.settings, sleep=self.sleep, engine=PODMAN)
