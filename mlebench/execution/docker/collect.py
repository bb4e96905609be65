"""Collect a stopped agent container's output folders without reading what is too large to keep.

The engine's archive API streams a folder as one tar: a member too large to keep still has to be read
through to reach the next one, so a large sparse file in ``logs/`` cost the host minutes after an agent that
ran under a second (docs/performance.md). The output folders are therefore volumes of the agent's
container, and after it stops a **collector** (a short-lived container of the env image, no network, the
agent's volumes mounted read-only, every capability dropped but reading any file) copies each folder into
its own ``/out`` with the collector every runner uses (:mod:`mlebench.execution.collector`, this file run
with the image's Python): it decides by ``lstat`` alone, skips files too large by apparent or allocated
size unread, names DVC cannot record, trees too deep, symlinks, hard links and special files, and stops
past the folder's bytes or entries or the time budget, each with a note. The host side
(:func:`mlebench.execution.docker.extract.fetch_tree`) checks the stream again with the same limits.
The collector's notes (one JSON line each on its stdout) join the run's ``extraction_notes``. The whole
collection is bounded: the collector in time (it is killed at ``secs`` + a grace), the copy out in bytes
(the folder limits) and in time (``extract``'s deadline).
"""

from __future__ import annotations

import dataclasses
import json
import time
import uuid
from pathlib import Path
from typing import Any

from docker.types import Mount

from mlebench.execution import collector
from mlebench.execution.docker import extract
from mlebench.execution.docker.engine import is_engine_failure

COLLECT_SECS = collector.Limits.secs
"""The collector's time budget for all folders (it stops copying and notes where)."""
_GRACE_SECS = 30
MAX_NOTES = collector.Limits.max_notes
OUT = "/out"
SCRIPT = Path(collector.__file__).read_text(encoding="utf-8")
"""The collector (:mod:`mlebench.execution.collector`, standard library only), run with the image's Python."""


def collect_trees(
    client: Any,
    agent: Any,
    image_id: str,
    trees: dict[str, Path],
    notes: list[str],
    labels: dict[str, str],
    limits: collector.Limits | None = None,
) -> dict[str, int]:
    """Copy each container folder of ``trees`` (container path → host destination) out of ``agent``.

    ``agent`` is the stopped agent container whose folders are volumes; ``image_id`` is the env image the
    collector runs. ``limits`` default to :meth:`collector.Limits.from_env`. Returns the files written per
    folder; every skip and refusal is appended to ``notes``.
    """
    limits = limits or collector.Limits.from_env()
    secs = limits.secs
    outs = {path: f"{OUT}/{path.rstrip('/').rsplit('/', 1)[-1]}" for path in trees}
    config = {"trees": outs, "limits": dataclasses.asdict(limits)}
    made = client.containers.create(
        image_id,
        entrypoint=["/usr/bin/python3", "-I", "-c", SCRIPT, json.dumps(config)],
        command=[],
        name=f"mlebench-collect-{uuid.uuid4().hex[:10]}",
        labels={**labels, "mlebench.role": "collector"},
        user="0:0",
        network_mode="none",
        volumes_from=[f"{agent.id}:ro"],
        # the copies go to a fresh anonymous volume (removed with the collector): the image's own root may
        # be read-only even to root without CAP_DAC_OVERRIDE (rootless Podman lays it out as mode 555)
        mounts=[Mount(target=OUT, source=None, type="volume")],
        cap_drop=["ALL"],
        cap_add=["DAC_READ_SEARCH"],  # read the agent's files whatever their modes; nothing else
        security_opt=["no-new-privileges:true"],
        mem_limit="256m",
        pids_limit=16,
        detach=True,
    )
    written: dict[str, int] = {}
    try:
        made.start()
        try:
            made.wait(timeout=secs + _GRACE_SECS)
        except Exception as exc:  # noqa: BLE001 - a collector past its grace is killed, its copies kept
            if not is_engine_failure(exc) and "timed out" not in str(exc).lower():
                raise
            made.kill()
            notes.append(f"collection: the collector ran past {secs + _GRACE_SECS} s and was stopped")
        output = made.logs(stdout=True, stderr=True, tail=limits.max_notes + 20).decode("utf-8", "replace")
        for line in output.splitlines():
            try:
                notes.append(str(json.loads(line)["note"]))
            except (ValueError, KeyError, TypeError):
                notes.append(f"collection: {line[:500]}")
        deadline = time.monotonic() + secs
        for path, dest in trees.items():
            top = path.rstrip("/").rsplit("/", 1)[-1]
            written[top] = extract.fetch_tree(
                made,
                outs[path],
                dest,
                notes,
                limits.max_file_bytes,
                limits.max_tree_bytes,
                limits.max_members,
                deadline=deadline,
                max_depth=limits.max_depth,
            )
    finally:
        try:
            made.remove(force=True, v=True)
        except Exception as exc:  # noqa: BLE001 - a leftover must not cost the cell its result
            if not is_engine_failure(exc):
                raise
            notes.append(f"container {made.name}: not removed ({exc})")
    return written
