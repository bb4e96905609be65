"""Any-time snapshots: copy the agent's ``submission.csv`` at configured marks while it runs.

The marks (:func:`marks`) are seconds since the agent started: every ``every_secs`` and/or the configured
fractions of the time limit, strictly before the limit (at the limit the final copy is taken anyway). A
:class:`Snapshotter` runs beside the runner's wait for the agent: at each mark it calls the runner's copy
function, which copies the file out with the same checks as the final copy (the Docker runner through
:func:`mlebench.execution.docker.extract.fetch_file`, the local runner without following symlinks) and
says ``copied``, ``missing`` or ``refused``. Marks the agent does not live to see are not taken: its final
submission stands for them.

Each snapshot lands in ``<run_dir>/snapshots/<mark_secs>/``: ``submission.csv`` (when copied) and
``snapshot.json`` (:class:`SnapshotRecord`). It is built in a hidden sibling folder and renamed into place,
so a crash or kill mid-copy leaves the snapshots taken before it whole and no half-taken one under a mark's
name.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from mlebench_spec.files import replace_dir, staging_dir, utc_now, write_json
from mlebench_spec.hashing import sha256_file
from mlebench_spec.params import SnapshotSettings

SNAPSHOTS_DIR = "snapshots"
SNAPSHOT_JSON = "snapshot.json"
SUBMISSION = "submission.csv"
Copy = Callable[[Path, list[str]], str]
"""Copy the agent's current submission to the given file; return ``copied``, ``missing`` or ``refused``,
appending why to the notes when refused."""


def marks(settings: SnapshotSettings, time_limit_secs: int) -> list[int]:
    """Return the snapshot marks in whole seconds since the agent started, sorted, each before the limit.

    >>> marks(SnapshotSettings(fractions=[0.25, 0.5, 0.75]), 120)
    [30, 60, 90]
    >>> marks(SnapshotSettings(every_secs=50, fractions=[0.5]), 120)
    [50, 60, 100]
    >>> marks(SnapshotSettings(), 120)
    []
    """
    found: set[int] = set()
    if settings.every_secs:
        found.update(range(settings.every_secs, time_limit_secs, settings.every_secs))
    found.update(int(round(f * time_limit_secs)) for f in settings.fractions)
    return sorted(m for m in found if 0 < m < time_limit_secs)


@dataclass(frozen=True)
class SnapshotRecord:
    """What ``snapshots/<mark_secs>/snapshot.json`` holds.

    ``mark_secs``: the configured mark (seconds since the agent started); ``elapsed_secs``: when the copy
    was really taken, on the same clock; ``taken_at``: UTC; ``submission``: ``copied``, ``missing`` (the
    agent had written none yet) or ``refused`` (a symlink, a folder, a special or oversized file: ``notes``
    say why); ``submission_sha256`` of the copied file (None otherwise).
    """

    mark_secs: int
    elapsed_secs: float
    taken_at: str
    submission: str
    notes: list[str]
    submission_sha256: str | None

    def to_json(self) -> dict[str, Any]:
        """As written."""
        return asdict(self)


def snapshot_dirs(run_dir: Path) -> list[Path]:
    """Return the finished snapshots of a run, by mark (hidden, half-built folders are not snapshots)."""
    base = run_dir / SNAPSHOTS_DIR
    if not base.is_dir():
        return []
    found = [p for p in base.iterdir() if p.name.isdigit() and p.is_dir() and (p / SNAPSHOT_JSON).is_file()]
    return sorted(found, key=lambda p: int(p.name))


def read_snapshot(folder: Path) -> SnapshotRecord:
    """Read one snapshot's record."""
    return SnapshotRecord(**json.loads((folder / SNAPSHOT_JSON).read_text(encoding="utf-8")))


def take(run_dir: Path, mark: int, started: float, copy: Copy) -> SnapshotRecord:
    """Take the snapshot of ``mark`` now: copy, record, and publish it atomically under its mark."""
    dest = run_dir / SNAPSHOTS_DIR / str(mark)
    staging = staging_dir(dest)
    notes: list[str] = []
    try:
        elapsed = round(time.monotonic() - started, 3)
        outcome = copy(staging / SUBMISSION, notes)
        if outcome != "copied":
            (staging / SUBMISSION).unlink(missing_ok=True)
        record = SnapshotRecord(
            mark_secs=mark,
            elapsed_secs=elapsed,
            taken_at=utc_now(),
            submission=outcome,
            notes=notes,
            submission_sha256=sha256_file(staging / SUBMISSION) if outcome == "copied" else None,
        )
        write_json(staging / SNAPSHOT_JSON, record.to_json())
    except BaseException:
        import shutil

        shutil.rmtree(staging, ignore_errors=True)
        raise
    replace_dir(staging, dest)
    return record


class Snapshotter:
    """Take the snapshots of ``schedule`` in a background thread while the runner waits for the agent.

    ``started`` is the runner's ``time.monotonic()`` at the agent's start. A copy that raises is noted
    (``errors``) and the next mark is still taken; the agent's run is never disturbed.
    """

    def __init__(self, run_dir: Path, schedule: list[int], started: float, copy: Copy) -> None:
        self.run_dir, self.schedule, self.started, self.copy = run_dir, schedule, started, copy
        self.taken: list[SnapshotRecord] = []
        self.errors: list[str] = []
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._loop, name="mlebench-snapshots", daemon=True)

    def _loop(self) -> None:
        for mark in self.schedule:
            if self._stop.wait(max(0.0, self.started + mark - time.monotonic())):
                return
            with self._lock:
                if self._stop.is_set():
                    return
                try:
                    self.taken.append(take(self.run_dir, mark, self.started, self.copy))
                except Exception as exc:  # noqa: BLE001 - a failed snapshot is noted, the run goes on
                    self.errors.append(f"snapshot at {mark} s: {type(exc).__name__}: {exc}")

    def start(self) -> None:
        """Start waiting for the marks."""
        if self.schedule:
            self._thread.start()

    def stop(self) -> None:
        """Stop: no mark is taken after this returns (one being copied is finished first)."""
        self._stop.set()
        with self._lock:
            pass
        if self._thread.is_alive():
            self._thread.join()


@contextmanager
def snapshotting(
    run_dir: Path, settings: SnapshotSettings, time_limit_secs: int, started: float, copy: Copy
) -> Iterator[Snapshotter]:
    """Take snapshots while the block (the runner's wait for the agent) runs; stop when it ends."""
    snapper = Snapshotter(run_dir, marks(settings, time_limit_secs), started, copy)
    snapper.start()
    try:
        yield snapper
    finally:
        snapper.stop()
