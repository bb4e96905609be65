"""The sandbox runner's way out under networks ``egress`` and ``llm``: the cell's own squid on this host.

The sandboxed agent always has a network namespace of its own with nothing but a loopback (no route, no
DNS). Its one way out is a UNIX socket bound into the sandbox (read-only, at :data:`SOCKET_DIR`), reached by
a relay on its loopback (``127.0.0.1:3128``, the address in ``HTTP_PROXY``/``HTTPS_PROXY``; the relay runs
first in the sandbox and then starts the agent: :mod:`mlebench.execution.relay`). Per cell, on this host:

- **squid**, Debian's, with the Docker runner's configuration (:func:`.proxy.squid_config`: under
  ``egress`` any public destination, private ones refused, the host's loopback included; under ``llm`` the
  endpoints only), listening on a free port of the host's loopback, where no sandboxed agent can reach it
  (each has its own namespace), with its access log kept with the run (``proxy_access.log``);
- a **relay** (the same file, a process of its own) that makes the socket and carries each connection to
  squid's port.

Started as root, squid runs as its own unprivileged user (``proxy``), writing its logs in a folder given to
that user; started as an ordinary user, it runs as that user.
"""

from __future__ import annotations

import os
import pwd
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from mlebench.execution import egress_tls, relay
from mlebench.execution.proxy import READY_SECS, local_addresses, proxy_env, squid_config
from mlebench_spec.errors import ConfigError

SOCKET_DIR = "/run/mlebench-egress"
SOCKET_NAME = "proxy.sock"
AGENT_PROXY = "127.0.0.1:3128"
"""Where the relay listens in the sandbox (the proxy address its agent's clients are given)."""
CA_NAME = "ca.pem"
AGENT_CA = f"{SOCKET_DIR}/{CA_NAME}"
"""The cell's CA certificate in the sandbox (beside the socket; its key stays in squid's own folder)."""
ROUTE = "loopback only: a relay on 127.0.0.1:3128 to the cell's proxy over a UNIX socket"
SQUID_USER = "proxy"
RELAY_SOURCE = Path(relay.__file__)
"""The relay (standard library only): the host's end runs it with this Python, the sandbox's end with its."""
_READY = "HTTP Socket connections at"  # "Accepting [SSL bumped ]HTTP Socket connections at"
_SBIN = "/usr/local/sbin:/usr/sbin:/sbin"


def squid_binary() -> str | None:
    """Return the path of squid on this host (also looked for in the sbin folders), or None."""
    return shutil.which("squid", path=f"{os.environ.get('PATH', '')}:{_SBIN}")


def squid_problem() -> str | None:
    """Why the sandbox cannot give a proxied network here, or None.

    Its squid must inspect TLS (:mod:`.egress_tls`): Debian's OpenSSL build, ``squid-openssl``.
    """
    binary = squid_binary()
    if binary is None:
        return "squid is not installed on this host (apt-get install squid-openssl; its service need not run)"
    built = subprocess.run([binary, "-v"], capture_output=True, text=True).stdout
    if "--with-openssl" not in built or not Path(egress_tls.CERTGEN).is_file():
        return (
            f"{binary} cannot inspect TLS (built without OpenSSL, or no {egress_tls.CERTGEN}): "
            "apt-get install squid-openssl (it replaces the squid package)"
        )
    return None


@dataclass
class HostProxy:
    """One cell's proxy on this host: squid, the relay to it, and the folder holding the socket."""

    socket_dir: Path
    version: str = ""
    notes: list[str] = field(default_factory=list)
    inspects: bool = False

    def env(self) -> dict[str, str]:
        """Return the proxy variables of the agent's environment (upper and lower case: clients differ).

        Where the proxy inspects TLS, its clients' trust names the cell's CA (:data:`AGENT_CA`).
        """
        return proxy_env(f"http://{AGENT_PROXY}", AGENT_CA if self.inspects else "")

    def relay_command(self, python: str, relay: str) -> list[str]:
        """Return the command that starts the relay in the sandbox; the agent's command follows it."""
        return [python, "-I", relay, f"tcp:{AGENT_PROXY}", f"unix:{SOCKET_DIR}/{SOCKET_NAME}", "--"]


def _tls_files(tls: egress_tls.TlsPolicy, logs: Path, sockets: Path) -> list[str]:
    """Write the CA (key in squid's folder, certificate beside the socket), make the generator's folder."""
    (logs / "ca.pem").write_text(tls.ca.cert, encoding="ascii")
    key = logs / "ca.key"
    key.touch(mode=0o600)
    key.write_text(tls.ca.key, encoding="ascii")
    upstream = ""
    if tls.upstream_ca:
        (logs / "upstream-ca.pem").write_text(tls.upstream_ca, encoding="ascii")
        upstream = str(logs / "upstream-ca.pem")
    agent_copy = sockets / CA_NAME
    agent_copy.write_text(tls.ca.cert, encoding="ascii")
    agent_copy.chmod(0o444)
    db = str(logs / "certs")
    made = subprocess.run(egress_tls.certgen_init_command(db), capture_output=True, text=True)  # noqa: S603
    if made.returncode != 0:
        raise RuntimeError(f"squid's certificate generator could not make {db}: {made.stderr[-2000:]}")
    return egress_tls.squid_lines(str(logs / "ca.pem"), str(key), db, upstream)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _stop(proc: subprocess.Popen | None) -> None:
    if proc is None or proc.poll() is not None:
        return
    proc.send_signal(signal.SIGTERM)
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


def _start_squid(binary: str, config: Path, logs: Path) -> subprocess.Popen:
    proc = subprocess.Popen(  # noqa: S603 - a fixed command line
        [binary, "-N", "-f", str(config)],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    deadline = time.monotonic() + READY_SECS
    cache = logs / "cache.log"
    while time.monotonic() < deadline:
        text = cache.read_text(errors="replace") if cache.is_file() else ""
        if _READY in text:
            return proc
        if proc.poll() is not None:
            raise RuntimeError(f"squid exited before it was ready:\n{text[-3000:]}")
        time.sleep(0.1)
    _stop(proc)
    raise RuntimeError(f"squid was not ready within {READY_SECS} s")


@contextmanager
def host_proxy(
    endpoints: list[str], allow_all: bool, access_log: Path, tls: egress_tls.TlsPolicy | None = None
) -> Iterator[HostProxy]:
    """Start the cell's squid and its relay; stop them when the block ends (the access log to ``access_log``).

    With ``tls`` squid inspects HTTPS with the cell's CA (its key in squid's own folder, out of the
    sandbox's view; the certificate beside the socket) and refuses the cell's forbidden sources.

    Raises
    ------
    ConfigError
        When squid is not installed.
    RuntimeError
        When squid or the relay does not come up.

    """
    binary = squid_binary()
    if binary is None:
        raise ConfigError(f"the sandbox runner's proxied networks need squid: {squid_problem()}")
    logs = Path(tempfile.mkdtemp(prefix="mlebench-squid-"))
    sockets = Path(tempfile.mkdtemp(prefix="mlebench-egress-"))
    version = subprocess.run([binary, "-v"], capture_output=True, text=True).stdout.splitlines()[:1]
    state = HostProxy(socket_dir=sockets, version=(version or [""])[0].strip(), inspects=tls is not None)
    squid = relay = None
    try:
        extra, inspect = "", None
        if tls is not None:
            inspect = _tls_files(tls, logs, sockets)
        if os.getuid() == 0:  # squid then runs as its own user, which must be able to write its logs
            user = pwd.getpwnam(SQUID_USER)
            for folder, _, names in os.walk(logs):
                os.chown(folder, user.pw_uid, user.pw_gid)
                for name in names:
                    os.chown(Path(folder) / name, user.pw_uid, user.pw_gid)
            extra = f"cache_effective_user {SQUID_USER}\n"
        for attempt in range(3):  # a free port may be taken before squid binds it
            port = _free_port()
            config = logs / "squid.conf"
            listen, here = f"127.0.0.1:{port}", local_addresses()  # squid reaches the host's own addresses
            forbidden = tuple(tls.refuse) if tls else ()
            text = squid_config(
                endpoints, "127.0.0.1/32", allow_all, listen, str(logs), here, inspect, forbidden
            )
            config.write_text(text + extra, encoding="utf-8")
            try:
                squid = _start_squid(binary, config, logs)
                break
            except RuntimeError:
                if attempt == 2:
                    raise
                (logs / "cache.log").unlink(missing_ok=True)
        relay = subprocess.Popen(  # noqa: S603 - a fixed command line
            [
                sys.executable,
                "-I",
                str(RELAY_SOURCE),
                f"unix:{sockets / SOCKET_NAME}",
                f"tcp:127.0.0.1:{port}",
            ],  # noqa: E501
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        assert relay.stdout is not None
        if relay.stdout.readline().strip() != b"READY":
            raise RuntimeError(f"the proxy's relay did not start (exit code {relay.poll()})")
        yield state
    finally:
        _stop(relay)
        _stop(squid)
        if (logs / "access.log").is_file():
            access_log.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(logs / "access.log", access_log)
        else:
            state.notes.append("proxy log not saved (squid wrote none)")
        shutil.rmtree(logs, ignore_errors=True)
        shutil.rmtree(sockets, ignore_errors=True)
