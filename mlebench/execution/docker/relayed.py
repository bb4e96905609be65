"""Networks ``egress`` and ``llm`` where the engine cannot make the cell's internal network (rootless Podman).

The agent's container gets no network at all (``none``: a loopback and nothing else, so no route and no
DNS). Its one way out is a UNIX socket to the cell's own proxy, which a relay on the agent's loopback
(``127.0.0.1:3128``, the address in ``HTTP_PROXY``/``HTTPS_PROXY``) reaches. Per cell, the runner makes (all
labelled like :mod:`.egress`'s resources, removed afterwards, and swept by :func:`.egress.sweep` when the
run that made them was killed):

- a **volume** (``mlebench-egress-<id>``) that holds the socket, ``proxy.sock``;
- the **proxy**: squid, the same image and configuration as the Docker runner's
  (:func:`.egress.squid_config`: under ``egress`` any public destination, private ones refused; under
  ``llm`` the endpoints only), in a container of its own with a user-mode network (slirp4netns, the host's
  loopback unreachable), listening on its own loopback only; its access log is kept with the run;
- the **proxy's relay**: a container of the env image in the proxy's network namespace with the volume,
  which makes the socket and carries each connection to squid (:mod:`mlebench.execution.relay`);
- in the agent's container, the volume mounted read-only at :data:`SOCKET_DIR`, and the **agent's relay**,
  started by the runner (an engine ``exec``) as the validator's user (uid 1001) with an empty environment:
  the agent (uid 1000, no capabilities) can neither stop nor replace it. The entry point waits until the
  relay listens before anything of the agent starts.

What the agent can do about it: connect to the socket itself (the same proxy, the same log); bind
``127.0.0.1:3128`` only if the relay is not listening, which leaves it with no way out at all. Nothing in its
namespace routes anywhere else, so what passes is the proxy's decision alone.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from mlebench.execution import egress_tls, relay
from mlebench.execution.docker import egress
from mlebench.execution.docker.engine import read_only_files_tar
from mlebench.execution.docker.images import ImageRef

if TYPE_CHECKING:
    import docker

SOCKET_DIR = "/run/mlebench-egress"
SOCKET = f"{SOCKET_DIR}/proxy.sock"
RELAY = "/opt/mlebench/relay.py"
RELAY_SOURCE = Path(relay.__file__)
"""The relay (standard library only), copied into the containers that run it."""
AGENT_LISTEN = f"tcp:127.0.0.1:{egress.PROXY_PORT}"
PYTHON = "/opt/venv/bin/python"
ROUTE = "loopback only: a relay on 127.0.0.1:3128 to the cell's proxy over a UNIX socket"
"""How the relayed way holds the agent to its proxy (run.json's ``egress.route``)."""
SLIRP = "slirp4netns:allow_host_loopback=false"
_PROBE = f'import socket; socket.create_connection(("127.0.0.1", {egress.PROXY_PORT}), 1).close()'
_WAIT = f"""tries=0
until {PYTHON} -I -S -c '{_PROBE}' 2>/dev/null; do
  tries=$((tries + 1))
  if [ "$tries" -ge 100 ]; then echo "relay-wait: the proxy relay did not listen in 10 s" >&2; break; fi
  sleep 0.1
done
exec "$@"
"""


def relay_files() -> bytes:
    """Return a tar (extracted at /) holding the relay, read-only."""
    return read_only_files_tar({RELAY: RELAY_SOURCE.read_text(encoding="utf-8")})


@dataclass
class Relayed:
    """One cell's relayed way out: the socket's volume, the proxy and the relay beside it."""

    volume: Any
    proxy: Any = None
    relay: Any = None
    validator_user: str = "1001:1001"
    notes: list[str] = field(default_factory=list)
    tls: Any = None

    @property
    def proxy_url(self) -> str:
        """Where the agent's HTTP clients send everything: its own loopback's relay."""
        return f"http://127.0.0.1:{egress.PROXY_PORT}"

    def env(self) -> dict[str, str]:
        """Return the proxy variables of the agent's environment (upper and lower case: clients differ)."""
        return egress.proxy_env(self.proxy_url, egress_tls.SYSTEM_BUNDLE if self.tls else "")

    def files(self) -> dict[str, str]:
        """Return the cell's CA in place of the system bundle (the agent's TLS all goes through the proxy)."""
        return egress.agent_files(self.tls)

    def network_mode(self) -> str:
        """Return the agent container's ``network_mode``: none (a loopback only)."""
        return "none"

    def own_namespace(self) -> bool:
        """Whether the agent's container has a network namespace of its own: yes, an empty one."""
        return True

    def mounts(self) -> list[Any]:
        """Return the socket's volume, read-only, at :data:`SOCKET_DIR`."""
        from docker.types import Mount

        return [Mount(target=SOCKET_DIR, source=self.volume.name, type="volume", read_only=True)]

    def entrypoint(self, entry: list[str]) -> list[str]:
        """Return ``entry`` behind a wait for the agent's relay (at most 10 s)."""
        return ["/bin/sh", "-c", _WAIT, "relay-wait", *entry]

    def started(self, container: Any, notes: list[str]) -> None:
        """Copy the relay in and start it in the agent's namespace as the validator's user (an ``exec``)."""
        import docker.errors

        command = ["env", "-i", "PATH=/usr/bin:/bin", PYTHON, "-I", RELAY, AGENT_LISTEN, f"unix:{SOCKET}"]
        try:
            container.put_archive("/", relay_files())
            container.exec_run(command, user=self.validator_user, detach=True)
        except docker.errors.APIError as exc:
            if "not running" not in str(exc).lower():
                raise
            notes.append("proxy relay not started: the container had already exited")


@contextmanager
def relayed(
    client: docker.DockerClient,
    proxy_image: ImageRef,
    relay_image: ImageRef,
    endpoints: list[str],
    cell_label: str,
    proxy_log: Path,
    allow_all: bool = False,
    validator_user: str = "1001:1001",
    tls: egress_tls.TlsPolicy | None = None,
) -> Iterator[Relayed]:
    """Make the cell's socket volume, proxy and proxy-side relay; remove them when the block ends.

    ``relay_image`` is an image with Python at :data:`PYTHON` (the env image). ``allow_all`` is the
    ``egress`` policy, else ``llm``. The proxy's access log is saved to ``proxy_log`` before it is removed.
    Raises :class:`~mlebench.execution.docker.engine.InfraError` when the proxy or its relay does not come up.
    """
    from docker.types import Mount

    suffix = uuid.uuid4().hex[:10]
    volume = client.volumes.create(
        name=f"mlebench-egress-{suffix}", labels=egress.labels("egress-socket", cell_label)
    )
    state = Relayed(volume=volume, validator_user=validator_user, tls=tls)
    limits: dict[str, Any] = dict(
        cap_drop=["ALL"], security_opt=["no-new-privileges:true"], pids_limit=256, detach=True
    )
    try:
        state.proxy = client.containers.create(
            proxy_image.id,
            command=egress.proxy_command(tls),
            name=f"mlebench-proxy-{suffix}",
            labels=egress.labels("egress-proxy", cell_label),
            network_mode=SLIRP,
            user="proxy",
            mem_limit="256m",
            **limits,
        )
        listen = f"127.0.0.1:{egress.PROXY_PORT}"
        refused = egress.local_addresses()  # slirp4netns reaches the host's own addresses as the host does
        config = egress.squid_config(
            endpoints,
            "127.0.0.1/32",
            allow_all,
            listen=listen,
            refused=refused,
            tls=egress.proxy_tls_lines(tls),
            forbidden=tuple(tls.refuse) if tls else (),
        )
        state.proxy.put_archive("/", read_only_files_tar(egress.proxy_files(config, tls)))
        state.proxy.start()
        egress._wait_for(state.proxy, egress._SQUID_READY, "the egress proxy")
        state.relay = client.containers.create(
            relay_image.id,
            command=[PYTHON, "-I", RELAY, f"unix:{SOCKET}", f"tcp:{listen}", "--mode", "0666"],
            name=f"mlebench-relay-{suffix}",
            labels=egress.labels("egress-relay", cell_label),
            network_mode=f"container:{state.proxy.id}",
            user="0:0",  # owns the volume (the engine's user outside), so it may make the socket there
            mem_limit="64m",
            mounts=[Mount(target=SOCKET_DIR, source=volume.name, type="volume")],
            **limits,
        )
        state.relay.put_archive("/", relay_files())
        state.relay.start()
        egress._wait_for(state.relay, "READY", "the egress proxy's relay")
        yield state
    finally:
        if state.proxy is not None:
            egress._save_log(state.proxy, proxy_log, state.notes)
        for container in (state.relay, state.proxy):
            if container is not None:
                egress._remove(container.remove, f"container {container.name}", state.notes, force=True)
        egress._remove(volume.remove, f"volume {volume.name}", state.notes, force=True)
