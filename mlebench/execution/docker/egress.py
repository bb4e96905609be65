"""Network policies ``llm`` and ``egress``: every request leaves through the cell's own logging proxy.

Under ``llm`` the agent reaches its configured endpoints and nothing else; under ``egress`` any public host.
Either way its traffic goes through a per-cell squid whose access log is kept with the run (the integrity
stage matches it against the forbidden resources), and nothing on the cell's networks can reach another
cell, the host's services or the engine. Per cell, the runner makes (all labelled ``mlebench.role`` and
``mlebench.owner``, and removed afterwards):

- an *internal* Docker network (``mlebench-llm-<id>``): no traffic from it is forwarded anywhere;
- an *outside* network of the cell's own (``mlebench-out-<id>``, a bridge), the proxy's only way out: no
  other cell's container is on it, and Docker keeps bridge networks apart;
- the **proxy**: squid from Debian (``environment/proxy.Dockerfile``, ``mlebench-egress-proxy:<hash>``) on
  the outside and the internal network. Its configuration (:func:`squid_config`) allows, from the internal
  network only: under ``llm``, ``CONNECT host:port`` (https) and absolute-URI plain-http requests to exactly
  the configured ``host:port`` pairs (names compared as written, never by their addresses); under
  ``egress``, any destination whose address is public. Private, loopback, link-local and shared addresses
  (:data:`PRIVATE_NETS`: other cells, the bridge gateways where the host's daemons listen, the engine) are
  refused under ``egress``, and under ``llm`` unless an endpoint names them. It resolves names itself.
- the **sandbox**: a container of the same image on the internal network that holds the agent's network
  namespace. With ``NET_ADMIN`` in that namespace only, it deletes the default route (the engine gives
  internal networks one, through which the host's own addresses answer) and installs a firewall whose
  only way out is TCP to the proxy's port (loopback apart; all IPv6 dropped), then sleeps. The agent joins
  its namespace (``network_mode=container:…``) with every capability dropped, so it can change none of it.
  Docker's embedded resolver (127.0.0.11, inside that namespace) still answers the proxy's name, but its
  queries for any other name are forwarded from the namespace, so the firewall drops them: the agent
  resolves nothing but the proxy, and reaches the allowed hosts by name through the proxy.

The agent's environment gets ``HTTP_PROXY``/``HTTPS_PROXY`` (and lowercase) pointing at the proxy, and
``NO_PROXY`` for the loopback (the validation server). A run killed before it could clean up leaves
resources whose owner process is gone: :func:`sweep` removes them (the runner calls it before every cell,
and the scheduler's reaper when a stage was killed).
"""

from __future__ import annotations

import os
import socket
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from mlebench.execution import egress_tls
from mlebench.execution.docker.engine import InfraError, is_engine_failure, read_only_files_tar
from mlebench.execution.docker.images import ENVIRONMENT, BuildContext, ImageRef, base_image_id, ensure_image
from mlebench.execution.proxy import (
    PROXY_PORT,
    READY_SECS,
    local_addresses,
    proxy_env,
    squid_config,
)
from mlebench_spec.params import DockerSettings

if TYPE_CHECKING:
    import docker

PROXY_REPO = "mlebench-egress-proxy"
PROXY_DOCKERFILE = "proxy.Dockerfile"
PROXY_ALIAS = "egress-proxy"
SQUID_CONF = "/etc/squid/mlebench.conf"
CELL_CA = "/etc/squid/cell-ca.pem"
CELL_KEY = "/etc/squid/cell-ca.key"
UPSTREAM_CA = "/etc/squid/upstream-ca.pem"
CERT_DB = "/tmp/mlebench-certs"
ROLE = "mlebench.role"
OWNER = "mlebench.owner"
_SANDBOX_READY = "mlebench-sandbox-ready"
_SQUID_READY = "HTTP Socket connections at"  # "Accepting [SSL bumped ]HTTP Socket connections at"


def proxy_context(root: Path) -> BuildContext:
    """Return the proxy image's build context: its Dockerfile alone."""
    ctx = BuildContext()
    ctx.add_file("Dockerfile", root / ENVIRONMENT / PROXY_DOCKERFILE)
    return ctx


def proxy_image(client: docker.DockerClient, settings: DockerSettings, root: Path) -> ImageRef:
    """Return the proxy image for ``settings.base_image``, building it if its tag is new."""
    return ensure_image(
        client,
        PROXY_REPO,
        proxy_context(root),
        "Dockerfile",
        {"BASE_IMAGE": settings.base_image},
        parent_id=base_image_id(client, settings.base_image),
        retries=settings.infra_retries,
    )


def sandbox_script(proxy_ip: str) -> str:
    """Return the shell script that seals a network namespace so only ``proxy_ip:PROXY_PORT`` is reachable."""
    return f"""set -eu
ip route del default 2>/dev/null || true
ip -6 route flush table main 2>/dev/null || true
for t in iptables ip6tables; do
  $t -w -P INPUT DROP; $t -w -P FORWARD DROP; $t -w -P OUTPUT DROP
  $t -w -A INPUT -i lo -j ACCEPT; $t -w -A OUTPUT -o lo -j ACCEPT
done
iptables -w -A INPUT -m state --state ESTABLISHED,RELATED -j ACCEPT
iptables -w -A OUTPUT -p tcp -d {proxy_ip} --dport {PROXY_PORT} -j ACCEPT
iptables -w -A OUTPUT -j REJECT
ip6tables -w -A OUTPUT -j REJECT
echo {_SANDBOX_READY}
exec sleep infinity
"""


class WayOut(Protocol):
    """A proxied cell's way out, as the agent's container sees it.

    Docker's sealed network (:class:`Egress`), or a relay over a UNIX socket (:mod:`.relayed`, for engines
    that cannot make that network).
    """

    notes: list[str]

    def env(self) -> dict[str, str]:
        """Return the proxy variables of the agent's environment."""

    def network_mode(self) -> str:
        """Return the agent container's ``network_mode``."""

    def own_namespace(self) -> bool:
        """Whether the agent's container has a network namespace (and so a hostname) of its own."""

    def mounts(self) -> list[Any]:
        """Return the mounts the agent's container needs for its way out."""

    def files(self) -> dict[str, str]:
        """Return the files put into the agent's container before it starts (the cell's CA), by path."""

    def entrypoint(self, entry: list[str]) -> list[str]:
        """Return the agent container's entry point, wrapped as the way out needs."""

    def started(self, container: Any, notes: list[str]) -> None:
        """Do what the way out needs once the agent's container runs, before its command starts."""


@dataclass
class Egress:
    """One cell's egress: the internal network, the proxy, the sandbox whose namespace the agent joins."""

    network: Any
    outside: Any = None
    proxy: Any = None
    sandbox: Any = None
    proxy_ip: str = ""
    notes: list[str] = field(default_factory=list)
    tls: egress_tls.TlsPolicy | None = None

    @property
    def proxy_url(self) -> str:
        """Where the agent's HTTP clients send everything: ``http://<proxy ip>:3128``."""
        return f"http://{self.proxy_ip}:{PROXY_PORT}"

    def env(self) -> dict[str, str]:
        """Return the proxy variables of the agent's environment (upper and lower case: clients differ)."""
        return proxy_env(self.proxy_url, egress_tls.SYSTEM_BUNDLE if self.tls else "")

    def files(self) -> dict[str, str]:
        """Return the cell's CA in place of the system bundle (the agent's TLS all goes through the proxy)."""
        return agent_files(self.tls)

    def network_mode(self) -> str:
        """Return the agent container's ``network_mode``: the sandbox's namespace."""
        return f"container:{self.sandbox.id}"

    def own_namespace(self) -> bool:
        """Whether the agent's container has a network namespace of its own (here: no, the sandbox's)."""
        return False

    def mounts(self) -> list[Any]:
        """Return what the agent's container mounts for its way out (nothing here: a network)."""
        return []

    def entrypoint(self, entry: list[str]) -> list[str]:
        """Return the agent container's entry point (unchanged: the network is up before it starts)."""
        return entry

    def started(self, container: Any, notes: list[str]) -> None:
        """Do what the way out needs once the agent's container runs (nothing here)."""


def owner() -> str:
    """Return the owner label of what this process creates: ``host:pid:start time``."""
    return f"{socket.gethostname()}:{os.getpid()}:{_start_time(os.getpid())}"


def owner_gone(label: str) -> bool:
    """Whether the process an owner label names has ended (only for this host; another host's: False)."""
    host, _, rest = label.partition(":")
    pid, _, started = rest.partition(":")
    if host != socket.gethostname() or not pid.isdigit():
        return False
    return _start_time(int(pid)) != started


def labels(role: str, cell_label: str) -> dict[str, str]:
    """Return the labels every per-cell resource carries."""
    return {ROLE: role, "mlebench.cell": cell_label, OWNER: owner()}


def agent_files(tls: egress_tls.TlsPolicy | None) -> dict[str, str]:
    """Return the files an inspected cell's agent container gets: the cell's CA as the system bundle."""
    return {egress_tls.SYSTEM_BUNDLE: tls.ca.cert} if tls is not None else {}


def proxy_files(config: str, tls: egress_tls.TlsPolicy | None) -> dict[str, str]:
    """Return the proxy container's files: its configuration, and the cell's CA and key where it inspects."""
    files = {SQUID_CONF: config}
    if tls is not None:
        files.update({CELL_CA: tls.ca.cert, CELL_KEY: tls.ca.key})
        if tls.upstream_ca:
            files[UPSTREAM_CA] = tls.upstream_ca
    return files


def proxy_tls_lines(tls: egress_tls.TlsPolicy | None) -> list[str] | None:
    """Return squid's inspection directives for the proxy container, or None where it does not inspect."""
    if tls is None:
        return None
    return egress_tls.squid_lines(CELL_CA, CELL_KEY, CERT_DB, UPSTREAM_CA if tls.upstream_ca else "")


def proxy_command(tls: egress_tls.TlsPolicy | None) -> list[str]:
    """Return the proxy container's command: squid, after making the certificate generator's folder."""
    if tls is None:
        return ["squid", "-N", "-f", SQUID_CONF]
    init = " ".join(egress_tls.certgen_init_command(CERT_DB))
    return ["sh", "-c", f"{init} >/dev/null 2>&1 && exec squid -N -f {SQUID_CONF}"]


@contextmanager
def egress(
    client: docker.DockerClient,
    image: ImageRef,
    endpoints: list[str],
    cell_label: str,
    proxy_log: Path,
    allow_all: bool = False,
    tls: egress_tls.TlsPolicy | None = None,
) -> Iterator[Egress]:
    """Make the cell's networks, proxy and sandbox; remove them when the block ends, however it ends.

    ``allow_all`` is the ``egress`` policy (any public host), else ``llm`` (the endpoints). The proxy's
    access log is saved to ``proxy_log`` before it is removed. Raises :class:`InfraError` when the proxy or
    the sandbox does not come up (with their output). ``tls``: the proxy inspects HTTPS with the cell's CA
    and refuses its forbidden sources (:mod:`mlebench.execution.egress_tls`).
    """
    suffix = uuid.uuid4().hex[:10]
    net = client.networks.create(
        f"mlebench-llm-{suffix}",
        driver="bridge",
        internal=True,
        enable_ipv6=False,
        labels=labels("llm-network", cell_label),
    )
    state = Egress(network=net, tls=tls)
    try:
        state.outside = client.networks.create(
            f"mlebench-out-{suffix}",
            driver="bridge",
            enable_ipv6=False,
            labels=labels("egress-network", cell_label),
        )
        net.reload()
        subnet = net.attrs["IPAM"]["Config"][0]["Subnet"]
        state.proxy = client.containers.create(
            image.id,
            command=proxy_command(tls),
            name=f"mlebench-proxy-{suffix}",
            labels=labels("egress-proxy", cell_label),
            network=state.outside.name,
            user="proxy",
            cap_drop=["ALL"],
            security_opt=["no-new-privileges:true"],
            mem_limit="256m",
            pids_limit=256,
            detach=True,
        )
        net.connect(state.proxy, aliases=[PROXY_ALIAS])
        # its bridge reaches the host's own addresses (through the engine's NAT): refused with the private
        config = squid_config(
            endpoints,
            subnet,
            allow_all,
            refused=local_addresses(),
            tls=proxy_tls_lines(tls),
            forbidden=tuple(tls.refuse) if tls else (),
        )
        state.proxy.put_archive("/", read_only_files_tar(proxy_files(config, tls)))
        state.proxy.start()
        _wait_for(state.proxy, _SQUID_READY, "the egress proxy")
        state.proxy.reload()
        state.proxy_ip = state.proxy.attrs["NetworkSettings"]["Networks"][net.name]["IPAddress"]
        state.sandbox = client.containers.create(
            image.id,
            command=["sh", "-c", sandbox_script(state.proxy_ip)],
            name=f"mlebench-sandbox-{suffix}",
            labels=labels("llm-sandbox", cell_label),
            network=net.name,
            hostname="agent",
            cap_drop=["ALL"],
            cap_add=["NET_ADMIN"],
            security_opt=["no-new-privileges:true"],
            mem_limit="64m",
            pids_limit=16,
            init=True,
            detach=True,
        )
        state.sandbox.start()
        _wait_for(state.sandbox, _SANDBOX_READY, "the network sandbox")
        yield state
    finally:
        if state.proxy is not None:
            _save_log(state.proxy, proxy_log, state.notes)
        for container in (state.sandbox, state.proxy):
            if container is not None:
                _remove(container.remove, f"container {container.name}", state.notes, force=True)
        for network in (net, state.outside):
            if network is not None:
                _remove(network.remove, f"network {network.name}", state.notes)


def sweep(client: docker.DockerClient) -> list[str]:
    """Remove the containers and networks of runs whose owner process has ended; return their names."""
    removed = []
    # ignore_removed: another run's container may go between the listing and its inspection (a 404)
    found = client.containers.list(all=True, filters={"label": OWNER}, ignore_removed=True)
    # proxies last: a container in a proxy's network namespace (Podman's relay) must go before it
    found.sort(key=lambda c: c.labels.get(ROLE, "") == "egress-proxy")
    for container in found:
        if owner_gone(container.labels.get(OWNER, "")):
            _remove(container.remove, container.name, [], force=True)
            removed.append(container.name)
    for net in client.networks.list(filters={"label": OWNER}):
        if owner_gone(net.attrs.get("Labels", {}).get(OWNER, "")):
            _remove(net.remove, net.name, [])
            removed.append(net.name)
    for volume in client.volumes.list(filters={"label": OWNER}):  # the relayed way's sockets (Podman)
        if owner_gone((volume.attrs.get("Labels") or {}).get(OWNER, "")):
            _remove(volume.remove, volume.name, [], force=True)
            removed.append(volume.name)
    return removed


ROUTE = "sealed network: an internal network, no default route, a firewall open only to the proxy"
"""How the Docker runner holds the agent to its proxy (run.json: ``egress.route``; the grading lineage's
``agent_network_route``)."""


def _wait_for(container: Any, marker: str, what: str) -> None:
    deadline = time.monotonic() + READY_SECS
    while time.monotonic() < deadline:
        output = container.logs(stdout=True, stderr=True).decode("utf-8", "replace")
        if marker in output:
            return
        container.reload()
        if container.status not in ("created", "running"):
            raise InfraError(f"{what} exited before it was ready:\n{output[-4000:]}")
        time.sleep(0.2)
    raise InfraError(f"{what} was not ready within {READY_SECS} s")


def _save_log(container: Any, path: Path, notes: list[str]) -> None:
    try:
        data = container.logs(stdout=True, stderr=False)
    except Exception as exc:  # noqa: BLE001 - a lost log must not cost the cell its result
        if not is_engine_failure(exc):
            raise
        notes.append(f"proxy log not saved ({exc})")
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)


def _remove(remove: Any, what: str, notes: list[str], **kwargs: Any) -> None:
    for attempt in range(3):
        try:
            remove(**kwargs)
            return
        except Exception as exc:  # noqa: BLE001 - a leftover must not cost the cell its result
            if not is_engine_failure(exc):
                raise
            if "not found" in str(exc).lower() or "no such" in str(exc).lower():
                return
            if attempt == 2:
                notes.append(f"{what}: not removed ({exc})")
            time.sleep(0.5)


def _start_time(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        return ""
