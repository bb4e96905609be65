r"""A model API without a model: a loopback server that speaks OpenAI's chat-completions protocol.

Tests point any OpenAI-compatible client (the ``openai`` SDK, an agent's scaffold, the integrity judge) at
:attr:`StandinLLM.base_url` and get scripted replies, with and without streaming, as text or tool calls.

Two ways to script replies:

- ``conversations``: per competition (or any key), a list of assistant turns replayed in order. A request
  belongs to the conversation whose key appears in its system messages or its first user message (the
  longest key that appears wins); each request of that conversation gets the next turn, whatever history
  it sends, so a client that keeps the whole history (a tool loop) and one that asks afresh each time
  (AIDE) are served alike. A turn is a string (the reply's text), a dict with ``content`` (text or
  None) and ``tool_calls`` (a list of ``{"name": ..., "arguments": {...} | "json text"}``), or a function
  of the request's messages returning either (a reply that reads what it answers, e.g. a review quoting
  the metric a script printed). Past the last turn a conversation answers ``default``.
- ``script`` (when no conversation matches): a function of the request's messages returning the reply's
  text, or a list of ``(regex, reply)`` rules tried in order against the concatenated message contents
  (the first match wins, else ``default``).

Every request is kept in ``requests`` (its JSON body) and every reply in ``served`` (the conversation key,
the turn index and the usage it reported), so a test can check what was sent and what was counted;
:meth:`usage` sums ``served``. ``key`` (optional) is the bearer token required (401 otherwise); ``fail``
makes the next N requests answer HTTP 500, to exercise retries. ``host`` is the address the server binds
(loopback by default; a container reaches it on the Docker bridge's gateway address).

Usage: every non-streamed reply carries ``usage``, and a streamed one ends with a usage chunk when the
request sets ``stream_options.include_usage`` (OpenAI's protocol). Tokens are counted honestly from the
text, not with a model tokenizer: a token is a run of word characters or one other non-space character
(regex ``\w+|[^\w\s]``). ``prompt_tokens`` counts every message's text content, the names and arguments
of the tool calls it carries and its ``tool_call_id``, plus the JSON of the request's ``tools``;
``completion_tokens`` counts the reply's content and its tool calls' names and arguments.

Streaming (``stream: true``) answers ``text/event-stream`` in HTTP/1.1 chunked encoding: one
``data: {chat.completion.chunk}`` event with the role, the content in pieces of a few tokens, each tool
call as a first delta with its index, id, type and name followed by its arguments in pieces, a last chunk
with ``finish_reason`` (``stop`` or ``tool_calls``), the usage chunk (``choices: []``) when asked, then
``data: [DONE]``.

Served: ``POST /v1/chat/completions`` and ``GET /v1/models``.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import ThreadingHTTPServer
from typing import Any
from urllib.parse import urlsplit

from authoring.loopback import LoopbackServer, QuietHandler

__all__ = ["Script", "StandinLLM", "Turn", "count_tokens"]

Script = Callable[[list[dict[str, Any]]], str] | list[tuple[str, str]]
Turn = str | dict[str, Any] | Callable[[list[dict[str, Any]]], "str | dict[str, Any]"]
_TOKEN = re.compile(r"\w+|[^\w\s]")
_PIECE_TOKENS = 4  # tokens per streamed content or arguments delta


def count_tokens(text: str) -> int:
    """Count tokens the stand-in's way: runs of word characters and single other non-space characters.

    >>> count_tokens("print(df.head())  # 5 rows")
    11
    """
    return len(_TOKEN.findall(text))


@dataclass
class StandinLLM(LoopbackServer):
    """A loopback OpenAI-compatible chat-completions server with scripted replies (see the module)."""

    script: Script = field(default_factory=list)
    default: str = "Final answer: no"
    model: str = "standin-model"
    key: str | None = None
    fail: int = 0
    conversations: dict[str, list[Turn]] = field(default_factory=dict)
    host: str = "127.0.0.1"
    requests: list[dict[str, Any]] = field(default_factory=list)
    served: list[dict[str, Any]] = field(default_factory=list)
    _server: ThreadingHTTPServer | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)
    _next_turn: dict[str, int] = field(default_factory=dict)

    @property
    def base_url(self) -> str:
        """The ``base_url`` an OpenAI client takes: ``http://<host>:<port>/v1``."""
        return f"http://{self.host}:{self.port}/v1"

    def usage(self, key: str | None = None) -> dict[str, int]:
        """Sum what the stand-in reported: requests, prompt and completion tokens (of one conversation)."""
        rows = [s for s in self.served if key is None or s["conversation"] == key]
        return {
            "requests": len(rows),
            "prompt_tokens": sum(s["usage"]["prompt_tokens"] for s in rows),
            "completion_tokens": sum(s["usage"]["completion_tokens"] for s in rows),
        }

    def conversation_of(self, messages: list[dict[str, Any]]) -> str | None:
        """Return the key of the conversation ``messages`` belong to, or None."""
        first_user = next((m for m in messages if m.get("role") == "user"), None)
        heads = [m for m in messages if m.get("role") in ("system", "developer")]
        text = "\n".join(_text(m.get("content")) for m in [*heads, *([first_user] if first_user else [])])
        found = [k for k in self.conversations if k in text]
        return max(found, key=len) if found else None

    def reply(self, messages: list[dict[str, Any]]) -> tuple[dict[str, Any], str | None, int | None]:
        """Return the scripted assistant message for ``messages``, its conversation key and turn index."""
        key = self.conversation_of(messages)
        if key is not None:
            with self._lock:
                index = self._next_turn.get(key, 0)
                self._next_turn[key] = index + 1
            turns = self.conversations[key]
            turn = turns[index] if index < len(turns) else self.default
            return _message(turn(messages) if callable(turn) else turn, index), key, index
        if callable(self.script):
            return _message(self.script(messages), 0), None, None
        text = "\n".join(_text(m.get("content")) for m in messages)
        for pattern, answer in self.script:
            if re.search(pattern, text, re.IGNORECASE | re.DOTALL):
                return _message(answer, 0), None, None
        return _message(self.default, 0), None, None

    def _take_failure(self) -> bool:
        with self._lock:
            if self.fail > 0:
                self.fail -= 1
                return True
            return False


def _text(content: Any) -> str:
    """Return the text of a message's content: a string, or the text parts of a list of content parts."""
    if content is None:
        return ""
    if isinstance(content, list):
        return "\n".join(str(p.get("text", "")) for p in content if isinstance(p, dict))
    return str(content)


def _message(turn: str | dict[str, Any], index: int) -> dict[str, Any]:
    """Return an assistant message (OpenAI's shape) for a scripted turn."""
    if isinstance(turn, str):
        return {"role": "assistant", "content": turn}
    calls = []
    for n, call in enumerate(turn.get("tool_calls") or []):
        arguments = call["arguments"]
        calls.append(
            {
                "id": f"call_standin_{index}_{n}",
                "type": "function",
                "function": {
                    "name": call["name"],
                    "arguments": arguments if isinstance(arguments, str) else json.dumps(arguments),
                },
            }
        )
    message: dict[str, Any] = {"role": "assistant", "content": turn.get("content")}
    if calls:
        message["tool_calls"] = calls
    return message


def _prompt_tokens(request: dict[str, Any]) -> int:
    total = 0
    for m in request["messages"]:
        total += count_tokens(_text(m.get("content")))
        total += count_tokens(str(m.get("tool_call_id") or ""))
        for call in m.get("tool_calls") or []:
            function = call.get("function") or {}
            total += count_tokens(str(function.get("name", ""))) + count_tokens(
                str(function.get("arguments", ""))
            )
    if request.get("tools"):
        total += count_tokens(json.dumps(request["tools"], sort_keys=True))
    return total


def _completion_tokens(message: dict[str, Any]) -> int:
    total = count_tokens(_text(message.get("content")))
    for call in message.get("tool_calls") or []:
        total += count_tokens(call["function"]["name"]) + count_tokens(call["function"]["arguments"])
    return total


def _pieces(text: str) -> Iterator[str]:
    """Split text into consecutive pieces of a few tokens each (joined, they give the text back)."""
    starts = [m.start() for m in _TOKEN.finditer(text)][::_PIECE_TOKENS]
    if not starts:
        if text:
            yield text
        return
    starts[0] = 0
    for a, b in zip(starts, [*starts[1:], len(text)], strict=True):
        yield text[a:b]


class _Handler(QuietHandler):
    standin: StandinLLM

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
        if self.standin._take_failure():
            return self._error(500, "scripted failure")
        message, key, index = self.standin.reply(messages)
        prompt, completion = _prompt_tokens(request), _completion_tokens(message)
        usage = {
            "prompt_tokens": prompt,
            "completion_tokens": completion,
            "total_tokens": prompt + completion,
        }
        with self.standin._lock:
            self.standin.served.append({"conversation": key, "turn": index, "usage": usage})
            number = len(self.standin.served)
        head = {
            "id": f"chatcmpl-standin-{number}",
            "created": int(time.time()),
            "model": request.get("model", self.standin.model),
        }
        finish = "tool_calls" if message.get("tool_calls") else "stop"
        if request.get("stream"):
            include_usage = bool((request.get("stream_options") or {}).get("include_usage"))
            return self._stream(head, message, finish, usage if include_usage else None)
        choice = {"index": 0, "message": message, "finish_reason": finish, "logprobs": None}
        return self._json(200, {**head, "object": "chat.completion", "choices": [choice], "usage": usage})

    def _stream(
        self, head: dict[str, Any], message: dict[str, Any], finish: str, usage: dict[str, int] | None
    ) -> None:
        self.send_response(200)
        self.send_header("Content-Type", "text/event-stream; charset=utf-8")
        self.send_header("Cache-Control", "no-cache")
        self.send_header("Transfer-Encoding", "chunked")
        self.end_headers()
        extra = {"usage": None} if usage is not None else {}

        def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> dict[str, Any]:
            choice = {"index": 0, "delta": delta, "finish_reason": finish_reason, "logprobs": None}
            return {**head, "object": "chat.completion.chunk", "choices": [choice], **extra}

        self._event(chunk({"role": "assistant", "content": ""}))
        for piece in _pieces(message.get("content") or ""):
            self._event(chunk({"content": piece}))
        for n, call in enumerate(message.get("tool_calls") or []):
            function = call["function"]
            first = {"index": n, "id": call["id"], "type": "function"}
            self._event(
                chunk({"tool_calls": [{**first, "function": {"name": function["name"], "arguments": ""}}]})
            )
            for piece in _pieces(function["arguments"]):
                self._event(chunk({"tool_calls": [{"index": n, "function": {"arguments": piece}}]}))
        self._event(chunk({}, finish))
        if usage is not None:
            self._event({**head, "object": "chat.completion.chunk", "choices": [], "usage": usage})
        self._send_chunk(b"data: [DONE]\n\n")
        self._send_chunk(b"")

    def _event(self, payload: dict[str, Any]) -> None:
        self._send_chunk(b"data: " + json.dumps(payload).encode() + b"\n\n")

    def _send_chunk(self, data: bytes) -> None:
        self.wfile.write(f"{len(data):x}\r\n".encode() + data + b"\r\n")
        self.wfile.flush()

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


StandinLLM.handler = _Handler  # the handler class comes after the stand-in
