"""gVisor under the Docker runner (``docker.runtime: runsc``): the engine runtime an agent runs under.

And what its run record says of it.

The engine offers gVisor as one or more runtimes whose program is ``runsc`` (environment/start_engine.sh
registers ``runsc`` and ``runsc-hostnet``), told apart by runsc's ``--network`` argument:

- ``sandbox`` (runsc's default): gVisor's own network stack, which takes over the interfaces of the
  container's network namespace and sends its packets out by raw sockets, past that namespace's firewall;
- ``none``: gVisor's own loopback and nothing else (where ``sandbox`` does not run: runsc releases before 2023
  take every namespace for the host's on kernels that give each its own ``net.core.rmem_default``);
- ``host``: gVisor's kernel, whose sockets are the host kernel's, in the container's own network namespace.

An agent under network ``none`` runs under the runtime the settings name. A proxied agent (``egress``,
``llm``) joins its cell's sealed namespace, where a firewall lets it reach only its proxy
(:mod:`.egress`): under gVisor's own stack that firewall would not filter its packets, so it runs under a
``--network=host`` runtime of the engine's, whose sockets the firewall holds. Docs:
docs/runners-and-isolation.md#gvisor.
"""

from __future__ import annotations

import json
from pathlib import PurePosixPath
from typing import Any

from mlebench.execution import seccomp
from mlebench_spec.errors import ConfigError
from mlebench_spec.network import NetworkPolicy

KERNEL = "gVisor user-space kernel (runsc)"
"""run.json's ``docker.kernel`` (and the grading lineage's ``agent_kernel``) for an agent under gVisor."""
HOST_NETWORK = "runsc-hostnet"
"""The name environment/start_engine.sh gives the ``--network=host`` runtime (preferred where several are)."""
STACKS = {
    "sandbox": "gVisor's own network stack",
    "none": "gVisor's own loopback only",
    "host": "the host kernel's sockets in the container's own network namespace (the cell's sealed network)",
}
"""What ``runsc --network=<mode>`` gives the agent (run.json: ``docker.gvisor_network``)."""
THREADS_PER_TASK = 16
SENTRY_THREADS = 256
"""The container's pids cgroup under gVisor: ``THREADS_PER_TASK`` host threads per task of gVisor's kernel
allowed to the agent, plus ``SENTRY_THREADS`` (:func:`container_limits`). Measured here (ptrace platform,
runsc 20221219): 63 sleeping tasks ran with a limit of 600 and killed the sandbox with 384."""
NO_NEW_PRIVILEGES = "no-new-privileges:true"
SECCOMP = (
    f"{len(seccomp.DENIED)} calls and clone with CLONE_NEW* refused (EPERM), clone3 answered ENOSYS "
    "(traced): Docker's default refusals in the form runsc applies"
)
"""run.json's ``docker.seccomp`` under gVisor: the profile its kernel applied (:func:`security_opt`)."""
FIX = (
    "apt-get install runsc (Debian's gVisor), then start dockerd with environment/start_engine.sh, which "
    "registers the runtimes runsc and runsc-hostnet"
)


def is_gvisor(spec: dict[str, Any]) -> bool:
    """Whether an engine runtime (an entry of ``docker info``'s ``Runtimes``) runs ``runsc``."""
    return PurePosixPath(str(spec.get("path", ""))).name == "runsc"


def network_mode(spec: dict[str, Any]) -> str:
    """Return the ``--network`` mode of a runtime: its last ``--network`` argument, or the default."""
    mode = "sandbox"
    args = list(spec.get("runtimeArgs") or [])
    for i, arg in enumerate(args):
        if arg.startswith("--network="):
            mode = arg.partition("=")[2]
        elif arg == "--network" and i + 1 < len(args):
            mode = args[i + 1]
    return mode


_SEEN: set[str] = set()
"""The engine runtimes :func:`resolve` has found to run ``runsc``, by name."""


def security_opt(runtime: str) -> list[str]:
    """Return the security options of a container (the agent's, the grader's) under the engine ``runtime``.

    No new privileges everywhere; under gVisor also our seccomp profile in the form its kernel applies as
    meant (:func:`mlebench.execution.seccomp.gvisor_profile`): runsc 20221219 answers Docker's default
    profile's ``clone3`` refusal with ``EPERM`` instead of its ``ENOSYS``, so no thread would start.
    """
    if runtime not in _SEEN:
        return [NO_NEW_PRIVILEGES]
    return [NO_NEW_PRIVILEGES, f"seccomp={json.dumps(seccomp.gvisor_profile(), separators=(',', ':'))}"]


def container_limits(runtime: str, pids: int) -> dict[str, Any]:
    """Return the agent container's process limits under gVisor (``{}`` under any other runtime).

    Under gVisor the agent's processes are tasks of gVisor's kernel, not the host's: the container's pids
    cgroup counts the host threads of gVisor's kernel instead, which a limit as low as the hardware
    profile's ``pids`` starves (the sandbox dies, its kernel unable to make a thread). So ``pids`` is held
    where the agent's processes are, by gVisor's kernel (``RLIMIT_NPROC``: per user, inside this sandbox
    only, so never shared with another container), and the cgroup keeps a bound on the host threads
    (:data:`SENTRY_THREADS`).
    """
    if runtime not in _SEEN:
        return {}
    from docker.types import Ulimit

    nproc = Ulimit(name="nproc", soft=pids, hard=pids)
    return {"pids_limit": THREADS_PER_TASK * pids + SENTRY_THREADS, "ulimits": [nproc]}


def resolve(
    offered: dict[str, dict[str, Any]], runtime: str, policy: NetworkPolicy
) -> tuple[str, dict[str, str]]:
    """Return the engine runtime the agent's container runs under, and what run.json's ``docker`` block adds.

    ``offered``: the engine's runtimes (``docker info``'s ``Runtimes``); ``runtime``: ``docker.runtime``;
    ``policy``: the agent's network policy. A runtime the engine lacks, or a proxied agent under gVisor
    with no ``--network=host`` runtime to run it, is a :class:`ConfigError` naming the fix.
    """
    spec = offered.get(runtime)
    if spec is None:
        raise ConfigError(
            f"docker.runtime {runtime!r}: the Docker engine does not offer it (it offers "
            f"{', '.join(sorted(offered)) or 'none'}); for gVisor: {FIX}"
        )
    if not is_gvisor(spec):
        return runtime, {}
    _SEEN.update(name for name, other in offered.items() if is_gvisor(other))
    chosen = runtime
    if policy.proxied and network_mode(spec) != "host":
        host = sorted(
            (name != HOST_NETWORK, name)
            for name, other in offered.items()
            if is_gvisor(other) and network_mode(other) == "host"
        )
        if not host:
            raise ConfigError(
                f"docker.runtime {runtime!r} is gVisor with its own network stack, which would pass the "
                f"firewall that holds a {policy.kind!r} agent to its proxy; the engine offers no runsc "
                f"runtime with --network=host to run it under: {FIX}"
            )
        chosen = host[0][1]
    mode = network_mode(offered[chosen])
    return chosen, {
        "kernel": KERNEL,
        "engine_runtime": chosen,
        "gvisor_network": STACKS.get(mode, mode),
        "seccomp": SECCOMP,
    }


def engine_runtime(client: Any, runtime: str, policy: NetworkPolicy) -> tuple[str, dict[str, str]]:
    """:func:`resolve` against the engine ``client`` talks to (``runc``, the default, is not looked up)."""
    if runtime == "runc":
        return runtime, {}
    return resolve(client.info().get("Runtimes") or {}, runtime, policy)
