"""The relay that is a relayed agent's only way out (mlebench/execution/relay.py), run as the runners run it.

A TCP listener relays to a UNIX socket whose other end relays to a TCP server, as in a podman or sandbox
cell (agent's loopback → socket → proxy). Bytes pass both ways unchanged, half-closes included; an empty
probe never reaches the server; the command after ``--`` starts only once the relay listens.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

from mlebench.execution import relay
from mlebench.execution.egress_tls import LOGFORMAT
from mlebench.execution.proxy import PRIVATE_NETS, local_addresses, squid_config

RELAY = str(Path(relay.__file__))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_ready(proc: subprocess.Popen) -> None:
    assert proc.stdout is not None
    assert proc.stdout.readline().strip() == b"READY"


def _upstream(seen: list[bytes]) -> tuple[socket.socket, int]:
    """Start a TCP server that records what each connection sent and answers it reversed."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)

    def serve() -> None:
        while True:
            try:
                conn, _ = server.accept()
            except OSError:
                return
            data = b""
            while chunk := conn.recv(65536):
                data += chunk
            seen.append(data)
            conn.sendall(data[::-1])
            conn.close()

    threading.Thread(target=serve, daemon=True).start()
    return server, int(server.getsockname()[1])


def test_bytes_pass_both_ways_through_tcp_unix_tcp_and_probes_stay_local(tmp_path: Path) -> None:
    seen: list[bytes] = []
    server, port = _upstream(seen)
    sock = tmp_path / "proxy.sock"
    listen = _free_port()
    outer = subprocess.Popen(
        [sys.executable, "-I", RELAY, f"unix:{sock}", f"tcp:127.0.0.1:{port}", "--mode", "0666"],
        stdout=subprocess.PIPE,
    )
    inner = subprocess.Popen(
        [sys.executable, "-I", RELAY, f"tcp:127.0.0.1:{listen}", f"unix:{sock}"], stdout=subprocess.PIPE
    )
    try:
        _wait_ready(outer)
        _wait_ready(inner)
        assert sock.stat().st_mode & 0o777 == 0o666
        socket.create_connection(("127.0.0.1", listen), timeout=5).close()  # an empty probe
        payload = bytes(range(256)) * 1000
        with socket.create_connection(("127.0.0.1", listen), timeout=10) as c:
            c.sendall(payload)
            c.shutdown(socket.SHUT_WR)
            reply = b""
            while chunk := c.recv(65536):
                reply += chunk
        assert reply == payload[::-1]
        deadline = time.monotonic() + 5
        while not seen and time.monotonic() < deadline:
            time.sleep(0.05)
        assert seen == [payload], "the probe reached the server, or the payload changed"
    finally:
        for proc in (inner, outer):
            proc.kill()
            proc.wait()
        server.close()


def test_the_command_starts_only_once_the_relay_listens(tmp_path: Path) -> None:
    import os
    import signal

    listen = _free_port()
    probe = f"import socket; socket.create_connection(('127.0.0.1', {listen}), 2).close(); print('up')"
    proc = subprocess.Popen(
        [sys.executable, "-I", RELAY, f"tcp:127.0.0.1:{listen}", f"unix:{tmp_path / 'none.sock'}", "--"]
        + [sys.executable, "-c", probe],
        stdout=subprocess.PIPE,
        start_new_session=True,  # the serving child stays (in a sandbox, its PID namespace ends it)
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == b"up"
        assert proc.wait(timeout=30) == 0
    finally:
        os.killpg(proc.pid, signal.SIGKILL)


def test_relayed_squid_refuses_the_hosts_own_addresses_under_egress_only() -> None:
    here = local_addresses()
    assert "127.0.0.1" in here
    egress = squid_config([], "127.0.0.1/32", True, "127.0.0.1:4000", "/tmp/x", here)
    private = next(line for line in egress.splitlines() if line.startswith("acl private dst"))
    assert all(a in private.split() for a in (*PRIVATE_NETS, *here))
    assert "http_port 127.0.0.1:4000" in egress and "access_log stdio:/tmp/x/access.log mlebench" in egress
    llm = squid_config(["h.example:443"], "127.0.0.1/32", False, refused=here)
    assert "acl private" not in llm and llm.rstrip().endswith("http_access deny all")
    # the Docker runner's configuration is what it was
    assert squid_config([], "10.0.0.0/24", True).splitlines()[1:9] == [
        "http_port 3128",
        LOGFORMAT,  # the native line plus squid's error code (issue 48: uninspectable connections)
        "connect_timeout 15 seconds",
        "pid_filename none",
        "cache deny all",
        "cache_mem 8 MB",
        "cache_log stdio:/dev/stderr",
        "access_log stdio:/dev/stdout mlebench",
    ]
