"""The model endpoint for container tests under network ``llm``: the LLM stand-in, reachable from the proxy.

Use it like the other container fixtures (import it by name from this module, then name it as a test
parameter)::

    from container_fixtures import docker_client  # noqa: F401 - llm_endpoint needs it in the module
    from llm_fixtures import llm_endpoint  # noqa: F401 - a fixture

    def test_something(llm_endpoint, hostile):
        llm_endpoint.standin.script = [("hello", "hi")]          # the StandinLLM itself
        agent = AgentConfig(..., network="llm", endpoints=[llm_endpoint.endpoint])
        # inside the container the agent calls llm_endpoint.base_url, through the proxy in HTTPS_PROXY

``llm_endpoint`` (one per test) starts a :class:`authoring.llm_standin.StandinLLM` on a free port where the
runner's proxy reaches the host: under ``docker`` the engine's default-bridge gateway (the host side of
``docker0``), under ``podman`` and ``sandbox`` this host's address on its default route (Podman's proxy is on
slirp4netns, the sandbox's squid on the host); it yields an :class:`LLMEndpoint`:

- ``.standin``: the running stand-in (set ``.script``, ``.key``, ``.fail``; read ``.requests``);
- ``.base_url``: ``http://<gateway>:<port>/v1``, the URL the agent's OpenAI client uses (through the proxy);
- ``.endpoint``: ``"<gateway>:<port>"``, what goes into ``AgentConfig.endpoints``;
- ``.host`` and ``.port``: its parts.

The stand-in answers anyone who reaches that address; the agent itself cannot (its namespace only reaches
the proxy), which is what the red-team tests check. Host-side requests to it must bypass the session's
HTTP proxy (``urllib.request.build_opener(urllib.request.ProxyHandler({}))``).
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from container_fixtures import docker_client, needs_network, runner  # noqa: F401 - fixtures this one needs

from authoring.https_standin import HttpsIndex  # noqa: F401 - the tests import it from here
from authoring.llm_standin import StandinLLM


@dataclass(frozen=True)
class LLMEndpoint:
    """A running stand-in model API and how an ``llm`` agent names and calls it."""

    standin: StandinLLM
    host: str
    port: int

    @property
    def endpoint(self) -> str:
        """The ``host:port`` entry for ``AgentConfig.endpoints``."""
        return f"{self.host}:{self.port}"

    @property
    def base_url(self) -> str:
        """The OpenAI ``base_url`` the agent uses: ``http://host:port/v1``."""
        return f"http://{self.endpoint}/v1"


def bridge_gateway(client: Any) -> str:
    """Return the default bridge network's gateway address (the host, as containers on it see it).

    The engine names it in the network's IPAM config, except where it took over a bridge interface that
    already had its address (an engine restarted on the same host): then it is that interface's IPv4
    address, which the host's own ``ip`` reports.
    """
    attrs = client.networks.get("bridge").attrs
    config = attrs["IPAM"]["Config"] or []
    gateways = [c["Gateway"] for c in config if c.get("Gateway") and ":" not in c["Gateway"]]
    if gateways:
        return gateways[0]
    device = (attrs.get("Options") or {}).get("com.docker.network.bridge.name", "docker0")
    shown = subprocess.run(["ip", "-4", "-o", "addr", "show", "dev", device], capture_output=True, text=True)
    for field in shown.stdout.split():
        if "/" in field and field.count(".") == 3:
            return field.split("/", 1)[0]
    raise RuntimeError(
        f"the engine's bridge network has no IPv4 gateway: {config}; {device}: {shown.stdout!r}"
    )


def host_address() -> str:
    """Return this host's address on its default route, or the loopback on a machine without one.

    A user-mode network (slirp4netns) reaches the host there; the host's loopback it may not.
    """
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # no packet is sent: this only picks the route
        except OSError:
            return "127.0.0.1"
        return str(probe.getsockname()[0])


def endpoint_host(name: str, request: pytest.FixtureRequest) -> str:
    """Return where a model stand-in listens for runner ``name``'s proxy.

    The bridge gateway (Docker: its proxy sits on a bridge), or this host's own address (Podman's proxy on
    slirp4netns, the sandbox's squid on the host).
    """
    if name in ("docker", "gvisor"):
        return bridge_gateway(request.getfixturevalue("docker_client"))
    return host_address()


@pytest.fixture
def llm_endpoint(runner: str, request: pytest.FixtureRequest) -> Iterator[LLMEndpoint]:  # noqa: F811
    """Yield a StandinLLM where the runner's proxy reaches it, for agents under network ``llm``.

    See the module. Skips the test under a runner that refuses ``llm`` before any engine is asked for.
    """
    needs_network(runner, "llm")
    host = endpoint_host(runner, request)
    with StandinLLM(host=host) as standin:
        assert standin._server is not None
        yield LLMEndpoint(standin, host, int(standin._server.server_address[1]))
