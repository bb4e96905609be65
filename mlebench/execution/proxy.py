"""The cell's logging proxy, whatever holds the agent to it: squid's configuration and the agent's variables.

Under ``egress`` and ``llm`` every request of the agent leaves through a squid of its cell's own, started
by the runner: in a container on Docker's networks (:mod:`.docker.egress`), on a user-mode network under
Podman (:mod:`.docker.relayed`), or on this host for the sandbox (:mod:`.host_proxy`). All of them write
the same configuration (:func:`squid_config`) and give the agent the same variables (:func:`proxy_env`).
"""

from __future__ import annotations

import ipaddress
from pathlib import Path

from mlebench.execution import egress_tls

PROXY_PORT = 3128
READY_SECS = 60


PRIVATE_NETS = (
    "0.0.0.0/8",
    "10.0.0.0/8",
    "100.64.0.0/10",
    "127.0.0.0/8",
    "169.254.0.0/16",
    "172.16.0.0/12",
    "192.0.0.0/24",
    "192.168.0.0/16",
    "198.18.0.0/15",
    "224.0.0.0/4",
    "240.0.0.0/4",
    "::/96",
    "::ffff:0:0/96",
    "64:ff9b::/96",
    "64:ff9b:1::/48",
    "100::/64",
    "2001::/32",
    "2001:db8::/32",
    "2002::/16",
    "fc00::/7",
    "fe80::/10",
    "fec0::/10",
    "ff00::/8",
)
"""Destinations no cell may reach through its proxy (unless an ``llm`` endpoint names one): the private,
loopback, link-local, shared and reserved ranges, where other cells, the host's services on the bridge
gateways and a TCP engine socket live. IPv6 in every spelling of those: the unspecified address ``::``
(a connect to it reaches the host's own services, as ``0.0.0.0`` does) and loopback ``::1`` (both in
``::/96``, with the IPv4-compatible form), IPv4-mapped (``::ffff:127.0.0.1``), NAT64, 6to4 and Teredo
(which carry an IPv4 address inside), discard, documentation, site-local and multicast. Squid resolves a
name, and parses an IPv4 address in its decimal, octal, hexadecimal and short forms, before it matches
``dst``, so ``localhost``, ``2130706433``, ``0177.0.0.1`` and ``127.1`` meet ``127.0.0.0/8`` here."""


def squid_config(
    endpoints: list[str],
    clients: str,
    allow_all: bool = False,
    listen: str = str(PROXY_PORT),
    log_dir: str = "",
    refused: tuple[str, ...] = (),
    tls: list[str] | None = None,
    forbidden: tuple[str, ...] = (),
) -> str:
    """Return squid's configuration for requests from ``clients`` (a CIDR).

    Without ``allow_all`` (``llm``): the ``host:port`` endpoints only. With it (``egress``): any public
    destination, every private one (:data:`PRIVATE_NETS`) refused. The endpoints are checked by
    :class:`mlebench_spec.params.AgentConfig` (a DNS name or IPv4, a port), so nothing in them can add a
    directive. The whole policy is in this text, so any engine's runner can use it. ``listen`` is squid's
    ``http_port`` (``[address:]port``); the logs go to standard output and error, or to ``access.log`` and
    ``cache.log`` in ``log_dir`` (a squid started as root writes them as its own unprivileged user).
    ``refused`` adds addresses to the private ones under ``egress``: the host's own (:func:`local_addresses`)
    where the proxy reaches them as the host does (on the host, or on a user-mode network).
    ``tls`` (:func:`mlebench.execution.egress_tls.squid_lines`) makes it inspect HTTPS (every request then
    logged and judged with its whole URL); ``forbidden`` are URL patterns (squid's syntax,
    :func:`~mlebench.execution.egress_tls.posix_pattern`) refused before any allow rule, endpoints included.
    """
    access, cache = ("/dev/stdout", "/dev/stderr")
    if log_dir:
        access, cache = f"{log_dir}/access.log", f"{log_dir}/cache.log"
    lines = [
        "# Written by the runner for one cell: what its agent may reach, and nothing else.",
        f"http_port {listen}{tls[0] if tls else ''}",
        *(tls[1:] if tls else []),
        egress_tls.LOGFORMAT,
        "connect_timeout 15 seconds",
        "pid_filename none",
        "cache deny all",
        "cache_mem 8 MB",
        f"cache_log stdio:{cache}",
        f"access_log stdio:{access} mlebench",
        "logfile_rotate 0",
        "coredump_dir /tmp",
        "pinger_enable off",
        "shutdown_lifetime 1 seconds",
        "via off",
        "forwarded_for delete",
        "acl CONNECT method CONNECT",
        "acl plain_http proto HTTP",
        "acl inspected proto HTTPS",
        f"acl agent src {clients}",
        "http_access deny !agent",
        # an IPv6 literal host (no endpoint is one): refused before any address is looked at, where squid
        # without IPv6 (a container's) asserted and died on `CONNECT [::]:PORT`
        "acl ip6_literal dstdom_regex -n :",
        "http_access deny ip6_literal",
    ]
    lines += [f"acl forbidden_source url_regex -i {p}" for p in forbidden]
    lines += ["http_access deny forbidden_source"] if forbidden else []
    for i, endpoint in enumerate(endpoints):
        host, _, port = endpoint.rpartition(":")
        lines += [
            f"acl endpoint{i}_host dstdomain -n {host}",
            f"acl endpoint{i}_port port {int(port)}",
            f"http_access allow CONNECT endpoint{i}_host endpoint{i}_port",
            f"http_access allow plain_http endpoint{i}_host endpoint{i}_port",
            f"http_access allow inspected endpoint{i}_host endpoint{i}_port",
        ]
    if allow_all:
        lines += [
            f"acl private dst {' '.join((*PRIVATE_NETS, *refused))}",
            "http_access deny private",
            "http_access allow agent",
        ]
    lines += ["http_access deny all", ""]
    return "\n".join(lines)


def local_addresses() -> tuple[str, ...]:
    """Return this host's own addresses (IPv4 from ``/proc/net/fib_trie``, IPv6 from ``/proc/net/if_inet6``).

    A proxy that reaches the host as the host does (squid on the host, or on slirp4netns) reaches its
    services at any of them, public ones included, so under ``egress`` they are refused with the private ones.
    """
    found: set[str] = set()
    try:
        last = ""
        for line in Path("/proc/net/fib_trie").read_text().splitlines():
            text = line.strip()
            if text.startswith(("|--", "+--")):
                last = text.split()[-1]
            elif text == "/32 host LOCAL" and last:
                found.add(last)
    except OSError:
        pass
    try:
        for line in Path("/proc/net/if_inet6").read_text().splitlines():
            raw = line.split()[0]
            found.add(str(ipaddress.IPv6Address(bytes.fromhex(raw))))
    except (OSError, ValueError, IndexError):
        pass
    return tuple(sorted(found))


def proxy_env(url: str, ca_path: str = "") -> dict[str, str]:
    """Return the agent's proxy variables for ``url`` (both cases: clients differ); loopback goes direct.

    With ``ca_path`` (the cell's CA, where its proxy inspects TLS), the variables by which clients trust it.
    """
    env = egress_tls.trust_env(ca_path) if ca_path else {}
    for name in ("HTTP_PROXY", "HTTPS_PROXY"):
        env[name] = env[name.lower()] = url
    env["NO_PROXY"] = env["no_proxy"] = "localhost,127.0.0.1,::1"
    return env
