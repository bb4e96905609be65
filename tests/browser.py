"""Headless Chromium for tests, driven over the DevTools protocol on a pipe (no extra package, no port).

``open_page(path)`` loads a local file and returns what a person's browser would show: console errors,
uncaught exceptions, every request the page made, a PNG screenshot, and a way to evaluate JavaScript.
Chromium comes from Debian's ``chromium`` package (.ci/run installs it); outside CI a missing browser
skips the test, with ``CI=true`` it fails it.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import select
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--remote-debugging-pipe",
]


def chromium_or_skip() -> str:
    """Return the Chromium executable; skip without one (fail instead when CI=true)."""
    found = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)
    if found:
        return found
    message = "chromium is not installed (apt-get install -y --no-install-recommends chromium)"
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(message)
    pytest.skip(message)


@dataclass
class Page:
    """What loading a page gave."""

    errors: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)
    screenshot: bytes = b""
    values: dict[str, Any] = field(default_factory=dict)


class _Browser:
    def __init__(self, executable: str, profile: str) -> None:
        to_child, self._out = os.pipe()
        self._in, from_child = os.pipe()

        def wire() -> None:  # in the child: our pipes become fds 3 (commands in) and 4 (replies out)
            a = fcntl.fcntl(to_child, fcntl.F_DUPFD, 10)
            b = fcntl.fcntl(from_child, fcntl.F_DUPFD, 10)
            os.dup2(a, 3)
            os.dup2(b, 4)

        self.proc = subprocess.Popen(
            [executable, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            preexec_fn=wire,
            pass_fds=(3, 4),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        os.close(to_child)
        os.close(from_child)
        self._buf = b""
        self._next = 0
        self.events: list[dict[str, Any]] = []

    def call(self, method: str, params: dict | None = None, session: str | None = None, timeout: float = 30):
        self._next += 1
        message: dict[str, Any] = {"id": self._next, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._out, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + timeout
        while True:
            reply = self._read(deadline)
            if reply.get("id") == self._next:
                if "error" in reply:
                    raise AssertionError(f"{method}: {reply['error']}")
                return reply.get("result", {})
            self.events.append(reply)

    def wait_for(self, method: str, timeout: float = 30) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while not any(e.get("method") == method for e in self.events):
            self.events.append(self._read(deadline))
        return next(e for e in self.events if e.get("method") == method)

    def _read(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buf:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self._in], [], [], left)[0]:
                raise TimeoutError("chromium did not answer in time")
            chunk = os.read(self._in, 1 << 16)
            if not chunk:
                raise RuntimeError("chromium closed the DevTools pipe")
            self._buf += chunk
        message, _, self._buf = self._buf.partition(b"\0")
        return json.loads(message)

    def close(self) -> None:
        try:
            self.call("Browser.close", timeout=10)
        except (TimeoutError, RuntimeError, OSError, AssertionError):
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        os.close(self._out)
        os.close(self._in)


def open_page(path: Path, expressions: dict[str, str], width: int = 1280, height: int = 2400) -> Page:
    """Load ``path`` in headless Chromium; evaluate each of ``expressions`` once it has loaded."""
    executable = chromium_or_skip()
    page = Page()
    with tempfile.TemporaryDirectory() as profile:
        browser = _Browser(executable, profile)
        try:
            target = browser.call("Target.createTarget", {"url": "about:blank"})["targetId"]
            session = browser.call("Target.attachToTarget", {"targetId": target, "flatten": True})[
                "sessionId"
            ]
            for domain in ("Page", "Runtime", "Log", "Network"):
                browser.call(f"{domain}.enable", session=session)
            browser.call(
                "Emulation.setDeviceMetricsOverride",
                {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
                session=session,
            )
            url = path.resolve().as_uri()
            browser.call("Page.navigate", {"url": url}, session=session)
            browser.wait_for("Page.loadEventFired")
            for name, expression in expressions.items():
                result = browser.call(
                    "Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=session
                )
                page.values[name] = result.get("result", {}).get("value")
            shot = browser.call("Page.captureScreenshot", {"format": "png"}, session=session)
            page.screenshot = base64.b64decode(shot["data"])
        finally:
            browser.close()
    for event in browser.events:
        method, params = event.get("method"), event.get("params", {})
        if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
            page.errors.append(f"console: {params.get('args')}")
        elif method == "Runtime.exceptionThrown":
            page.errors.append(f"exception: {params.get('exceptionDetails', {}).get('text')}")
        elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
            page.errors.append(f"log: {params['entry'].get('text')}")
        elif method == "Network.requestWillBeSent":
            request_url = params.get("request", {}).get("url", "")
            if request_url != url and not request_url.startswith("data:"):
                page.requests.append(request_url)
    return page
