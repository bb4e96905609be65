"""A model API without a model: a loopback server that speaks OpenAI's chat-completions protocol.

Tests point any OpenAI-compatible client (the ``openai`` SDK, an agent's scaffold, the integrity judge) at
:attr:`StandinLLM.base_url` and get scripted replies. A reply is chosen per request by ``script``: a
function of the request's messages returning the reply's text, or a list of ``(regex, reply)`` rules tried
in order against the concatenated message contents (the first match wins, else ``default``). Every request
is kept in ``requests`` (its JSON body), so a test can check what was sent. ``key`` (optional) is the bearer
token required (401 otherwise); ``fail`` makes the next N requests answer HTTP 500, to exercise retries.
``host`` is the address it binds (loopback by default; the Docker bridge's gateway for containers).

Served: ``POST /v1/chat/completions`` (non-streaming) and ``GET /v1/models``.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

__all__ = ["Script", "StandinLLM"]

Script = Callable[[list[dict[str, Any]]], str] | list[tuple[str, str]]


@dataclass
class StandinLLM:
    """A loopback OpenAI-compatible chat-completions server with scripted replies (see the module)."""

    script: Script = field(default_factory=list)
    default: str = "Final answer: no"
    model: str = "standin-model"
    key: str | None = None
    fail: int = 0
    host: str = "127.0.0.1"
    requests: list[dict[str, Any]] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def __enter__(self) -> StandinLLM:
        handler = type("Handler", (_Handler,), {"standin": self})
        self._server = ThreadingHTTPServer((self.host, 0), handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        """Stop serving and close the socket."""
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    @property
    def base_url(self) -> str:
        """The ``base_url`` an OpenAI client takes: ``http://<host>:<port>/v1``."""
        assert self._server is not None, "the server is not running"
        return f"http://{self.host}:{self._server.server_address[1]}/v1"

    def reply(self, messages: list[dict[str, Any]]) -> str:
        """Return the scripted reply to ``messages``."""
        if callable(self.script):
            return self.script(messages)
        text = "\n".join(str(m.get("content", "")) for m in messages)
        for pattern, answer in self.script:
            if re.search(pattern, text, re.IGNORECASE | re.DOTALL):
                return answer
        return self.default

    def _take_failure(self) -> bool:
        with self._lock:
            if self.fail > 0:
                self.fail -= 1
                return True
            return False


class _Handler(BaseHTTPRequestHandler):
    standin: StandinLLM
    protocol_version = "HTTP/1.1"

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002 - the base class's name
        return

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        if not self._authorized():
            return None
        if urlsplit(self.path).path.rstrip("/") == "/v1/models":
            model = {"id": self.standin.model, "object": "model", "created": 0, "owned_by": "standin"}
            return self._json(200, {"object": "list", "data": [model]})
        return self._error(404, f"no route {self.path}")

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if not self._authorized():
            return None
        if urlsplit(self.path).path.rstrip("/") != "/v1/chat/completions":
            return self._error(404, f"no route {self.path}")
        try:
            request = json.loads(body or b"{}")
            messages = list(request["messages"])
        except (ValueError, KeyError, TypeError):
            return self._error(400, "the body must be JSON with a `messages` list")
        self.standin.requests.append(request)
        if request.get("stream"):
            return self._error(400, "the stand-in does not stream")
        if self.standin._take_failure():
            return self._error(500, "scripted failure")
        text = self.standin.reply(messages)
        prompt_tokens = sum(len(str(m.get("content", "")).split()) for m in messages)
        return self._json(
            200,
            {
                "id": f"chatcmpl-standin-{len(self.standin.requests)}",
                "object": "chat.completion",
                "created": int(time.time()),
                "model": request.get("model", self.standin.model),
                "choices": [
                    {
                        "index": 0,
                        "message": {"role": "assistant", "content": text},
                        "finish_reason": "stop",
                    }
                ],
                "usage": {
                    "prompt_tokens": prompt_tokens,
                    "completion_tokens": len(text.split()),
                    "total_tokens": prompt_tokens + len(text.split()),
                },
            },
        )

    def _authorized(self) -> bool:
        if self.standin.key is None or self.headers.get("Authorization") == f"Bearer {self.standin.key}":
            return True
        self._error(401, "Incorrect API key provided")
        return False

    def _error(self, status: int, message: str) -> None:
        self._json(status, {"error": {"message": message, "type": "standin_error", "code": status}})

    def _json(self, status: int, payload: dict[str, Any]) -> None:
        data = json.dumps(payload).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)
