"""The scheduler's JSONL event log, ``runs/.scheduler/events.jsonl``.

What was dispatched, started, finished, retried and recorded, with host and executor job id.
One JSON object per line, appended and fsynced as it happens, so after a kill -9 the log holds every event
up to the kill (a torn last line is skipped on reading). It is also the scheduler's memory across restarts:
a stage that ``finished`` but was never ``recorded`` is recorded from the inputs its ``dispatched`` event
snapshotted, without running it again.
"""

from __future__ import annotations

import json
import os
import socket
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

EVENTS = (
    "scheduler",
    "dispatched",
    "started",
    "finished",
    "recovering",
    "recorded",
    "unrecorded",
    "retried",
    "skipped",
)


def events_path(root: Path) -> Path:
    """Where a checkout's event log lives: beside the runs."""
    return root / "runs" / ".scheduler" / "events.jsonl"


class EventLog:
    """Append-only JSONL events of one checkout's scheduled runs."""

    def __init__(self, path: Path, session: str) -> None:
        self.path = path
        self.session = session
        path.parent.mkdir(parents=True, exist_ok=True)
        self._fh = path.open("a", encoding="utf-8")
        self._host = socket.gethostname()
        self._batched = 0
        self._unsynced = False

    def emit(self, event: str, **fields: Any) -> dict[str, Any]:
        """Append one event (``event`` is one of :data:`EVENTS`) and make it durable (see :meth:`batch`)."""
        record = {"event": event, "time": round(time.time(), 3), "session": self.session, **fields}
        record.setdefault("host", self._host)
        self._fh.write(json.dumps(record, sort_keys=True) + "\n")
        self._fh.flush()  # in the kernel's hands: a killed scheduler loses nothing
        if self._batched:
            self._unsynced = True
        else:
            os.fsync(self._fh.fileno())
        return record

    @contextmanager
    def batch(self) -> Iterator[None]:
        """Within the block, events are written as they come and made durable together when it ends.

        For a loop step that emits one event per stage (a wave of runs finishing, a batch recorded): one
        fsync instead of one each (many in a row when a wave ends; their cost: docs/performance.md, "Figures
        behind design choices"). A
        process kill loses none of them (each line is flushed to the kernel at once); only the machine going
        down before the block ends could, as it could before any single fsync.
        """
        self._batched += 1
        try:
            yield
        finally:
            self._batched -= 1
            if not self._batched and self._unsynced and not self._fh.closed:
                os.fsync(self._fh.fileno())
                self._unsynced = False

    def close(self) -> None:
        """Close the file."""
        self._fh.close()


def read_events(path: Path) -> list[dict[str, Any]]:
    """Every complete event in the log (a line torn by a kill is skipped)."""
    if not path.is_file():
        return []
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            out.append(json.loads(line))
        except json.JSONDecodeError:
            continue
    return out


RECOVERY_TRIES = 2
"""How many runs may try to record a stage a killed run left unrecorded (each logs ``recovering`` first):
a stage whose recording killed the scheduler that many times is given up (``unrecorded``, and run again),
never replayed by every later run."""


def unrecorded(events: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Stages whose last attempt finished cleanly but was never recorded: address → its input snapshot.

    A stage tried :data:`RECOVERY_TRIES` times already is left out (:func:`poisoned` names it).
    """
    return {k: v for k, (v, tries) in _unrecorded(events).items() if tries < RECOVERY_TRIES}


def poisoned(events: list[dict[str, Any]]) -> list[str]:
    """Stages left unrecorded whose recording was tried :data:`RECOVERY_TRIES` times without an outcome."""
    return sorted(k for k, (_, tries) in _unrecorded(events).items() if tries >= RECOVERY_TRIES)


def _unrecorded(events: list[dict[str, Any]]) -> dict[str, tuple[dict[str, Any], int]]:
    snapshots: dict[str, dict[str, Any]] = {}
    pending: dict[str, tuple[dict[str, Any], int]] = {}
    for e in events:
        key = e.get("stage")
        if e["event"] == "dispatched":
            snapshots[key] = e.get("inputs") or {}
            pending.pop(key, None)
        elif e["event"] == "finished" and e.get("status") == "ok" and key in snapshots:
            pending[key] = (snapshots[key], 0)
        elif e["event"] == "recovering" and key in pending:
            pending[key] = (pending[key][0], pending[key][1] + 1)
        elif e["event"] in ("recorded", "unrecorded"):
            pending.pop(key, None)
    return pending


def unfinished(events: list[dict[str, Any]]) -> dict[str, str]:
    """Stages whose last attempt was started and never finished (a killed scheduler's): address → job id."""
    out: dict[str, str] = {}
    for e in events:
        key = e.get("stage")
        if e["event"] == "started" and e.get("job_id"):
            out[key] = str(e["job_id"])
        elif e["event"] in ("dispatched", "finished", "skipped"):  # skipped: a later run stopped it
            out.pop(key, None)
    return out
