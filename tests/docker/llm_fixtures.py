"""The model endpoint for container tests under network ``llm``: the LLM stand-in, reachable from the proxy.

Use it like the other container fixtures (import it by name from this module, then name it as a test
parameter)::

    from container_fixtures import docker_client  # noqa: F401 - llm_endpoint needs it in the module
    from llm_fixtures import llm_endpoint  # noqa: F401 - a fixture

    def test_something(llm_endpoint, hostile):
        llm_endpoint.standin.script = [("hello", "hi")]          # the StandinLLM itself
        agent = AgentConfig(..., network="llm", endpoints=[llm_endpoint.endpoint])
        # inside the container the agent calls llm_endpoint.base_url, through the proxy in HTTPS_PROXY

``llm_endpoint`` (one per test) starts a :class:`authoring.llm_standin.StandinLLM` bound to the Docker
engine's default-bridge gateway (the host side of ``docker0``, where the egress proxy's container reaches
the host) on a free port, and yields an :class:`LLMEndpoint`:

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


@pytest.fixture
def llm_endpoint(runner: str, request: pytest.FixtureRequest) -> Iterator[LLMEndpoint]:  # noqa: F811
    """Yield a StandinLLM on the bridge gateway, for agents under network ``llm`` (see the module).

    Skips the test under a runner that refuses ``llm`` before any engine is asked for.
    """
    needs_network(runner, "llm")
    host = bridge_gateway(request.getfixturevalue("docker_client"))
    with StandinLLM(host=host) as standin:
        assert standin._server is not None
        yield LLMEndpoint(standin, host, int(standin._server.server_address[1]))
