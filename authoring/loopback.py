"""The stand-ins' one HTTP server: a ``ThreadingHTTPServer`` on a free port, served from a daemon thread.

A stand-in (:mod:`authoring.kaggle_standin`, :mod:`authoring.llm_standin`, :mod:`authoring.https_standin`)
subclasses :class:`LoopbackServer`, names its request handler class in ``handler`` and keeps ``_server``;
``with standin:`` serves it, and the handler reaches the stand-in as ``self.standin``.
"""

from __future__ import annotations

import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, ClassVar

__all__ = ["LoopbackServer", "QuietHandler"]


class QuietHandler(BaseHTTPRequestHandler):
    """A stand-in's request handler base: HTTP/1.1, no access log; ``self.standin`` is its server."""

    protocol_version = "HTTP/1.1"
    standin: Any

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        """Log nothing (the tests read the stand-in's own request lists)."""


class LoopbackServer:
    """Serve ``handler`` on a free port of ``host`` (default loopback) while a ``with`` block runs."""

    handler: ClassVar[type[BaseHTTPRequestHandler]]
    _server: ThreadingHTTPServer | None

    def __enter__(self) -> Any:
        handler = type("Handler", (self.handler,), {"standin": self})
        self._server = ThreadingHTTPServer((getattr(self, "host", "127.0.0.1"), 0), handler)
        self._listening(self._server)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        """Stop serving and close the socket."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    def _listening(self, server: ThreadingHTTPServer) -> None:
        """Adjust the bound socket before serving (HTTPS wraps it here)."""

    @property
    def port(self) -> int:
        """The port the server listens on."""
        assert self._server is not None, "the server is not running"
        return int(self._server.server_address[1])
