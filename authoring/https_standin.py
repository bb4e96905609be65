"""A stand-in package index over HTTPS on this machine, for tests and benchmarks of the cell's proxy.

The cell's proxy inspects TLS (:mod:`mlebench.execution.egress_tls`): it connects to the index itself and
checks its certificate, so the index's self-signed certificate is given to the proxy as an upstream CA
(``MLEBENCH_EGRESS_UPSTREAM_CA``), never to the agent. Standard library and the ``openssl`` tool only.
"""

from __future__ import annotations

import ssl
import subprocess
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

from authoring.loopback import LoopbackServer


class HttpsIndex(LoopbackServer):
    """A stand-in package index over HTTPS on this machine, with a self-signed certificate for its address.

    The cell's proxy is told to trust that certificate as an upstream CA (``MLEBENCH_EGRESS_UPSTREAM_CA``);
    the agent never is (it trusts only its cell's CA). ``/simple/allowed/`` answers a page naming
    :attr:`MARKER`; any other path answers 404. :attr:`requests` lists the paths that reached it.
    """

    MARKER = "allowed-package-page"

    def __init__(self, host: str, folder: Path, payload_bytes: int = 0) -> None:
        self.host = host
        self.folder = folder
        self.requests: list[str] = []
        self.payload = b"x" * payload_bytes
        self._server: ThreadingHTTPServer | None = None

    def __enter__(self) -> HttpsIndex:
        key, cert = self.folder / "index.key", self.folder / "index.pem"
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
            + ["-days", "1", "-subj", f"/CN={self.host}", "-keyout", str(key), "-out", str(cert)]
            + ["-addext", f"subjectAltName=IP:{self.host}"],
            check=True,
            capture_output=True,
        )
        return super().__enter__()

    def _listening(self, server: ThreadingHTTPServer) -> None:
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(str(self.folder / "index.pem"), str(self.folder / "index.key"))
        server.socket = context.wrap_socket(server.socket, server_side=True)

    @property
    def endpoint(self) -> str:
        """The ``host:port`` entry for ``AgentConfig.endpoints``."""
        return f"{self.host}:{self.port}"

    @property
    def base(self) -> str:
        """``https://host:port``, the index's root."""
        return f"https://{self.endpoint}"

    @property
    def cert_path(self) -> Any:
        """Its certificate's file (what the proxy is told to trust upstream)."""
        return self.folder / "index.pem"

    @property
    def cert_pem(self) -> str:
        """Its certificate, PEM (what a pinning client trusts)."""
        return self.cert_path.read_text()


class _Handler(BaseHTTPRequestHandler):
    standin: HttpsIndex

    def do_GET(self) -> None:  # noqa: N802 - the standard library's name
        index = self.standin
        index.requests.append(self.path)
        found = self.path in ("/simple/allowed/", "/payload")
        body = f"<html><body>{index.MARKER}</body></html>".encode() if found else b"not here"
        if self.path == "/payload":
            body = index.payload
        self.send_response(200 if found else 404)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: Any) -> None:
        pass


HttpsIndex.handler = _Handler  # the handler class comes after the stand-in
