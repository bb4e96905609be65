"""Collect a stopped agent container's output folders without reading what is too large to keep.

The engine's archive API streams a folder as one tar: a member too large to keep still has to be read
through to reach the next one, so a 12 GB sparse file in ``logs/`` cost 83 s of the host's time (about
2 h per TiB) after an agent that ran 0.27 s. The output folders are therefore volumes of the agent's
container, and after it stops a **collector** (a short-lived container of the env image, no network, the
agent's volumes mounted read-only, every capability dropped but reading any file) copies each folder into
its own ``/out``, deciding by ``lstat`` alone: a regular file larger than ``max_file_bytes`` is skipped
without a byte of it being read (sparse or not), as is everything past ``max_tree_bytes`` or
``max_members`` per folder or past the time budget. Folders, symlinks, hard links and fifos are copied as
what they are, so the host side (:func:`mlebench.execution.docker.extract.fetch_tree`, unchanged) still
refuses them with its own notes. The collector's notes (one JSON line each on its stdout) join the run's
``extraction_notes``. The whole collection is bounded: the collector in time (it is killed at
``secs`` + a grace), the copy out in bytes (the folder limits) and in time (``extract``'s deadline).
"""

from __future__ import annotations

import json
import time
import uuid
from pathlib import Path
from typing import Any

from docker.types import Mount

from mlebench.execution.docker import extract
from mlebench.execution.docker.engine import is_engine_failure

COLLECT_SECS = 120
"""The collector's time budget for all folders (it stops copying and notes where)."""
_GRACE_SECS = 30
MAX_NOTES = 200
OUT = "/out"

# Runs in the collector with the system Python (-I: no environment, no user site). Reads argv[1] (JSON).
SCRIPT = r"""
import json, os, stat, sys, time
cfg = json.loads(sys.argv[1])
deadline = time.monotonic() + cfg["secs"]
notes = 0
def note(path, text):
    global notes
    notes += 1
    if notes <= cfg["max_notes"]:
        print(json.dumps({"path": path, "note": text}), flush=True)
def copy(src, dst, size):
    fd = os.open(src, os.O_RDONLY | os.O_NOFOLLOW)
    with os.fdopen(fd, "rb") as fin, open(dst, "xb") as fout:
        left = size
        while left > 0:
            chunk = fin.read(min(1 << 20, left))
            if not chunk:
                break
            fout.write(chunk)
            left -= len(chunk)
for tree in cfg["trees"]:
    top = os.path.basename(tree.rstrip("/"))
    out = os.path.join(cfg["out"], top)
    if not os.path.isdir(tree) or os.path.islink(tree):
        continue
    os.makedirs(out)
    total = members = 0
    seen = {}
    stop = ""
    for dirpath, dirnames, filenames in os.walk(tree):
        dirnames.sort()
        for name in sorted(dirnames + filenames):
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, tree)
            label = top + "/" + rel
            members += 1
            if members > cfg["max_members"]:
                stop = f"more than {cfg['max_members']} entries; collection stopped at {rel!r}"
            elif time.monotonic() > deadline:
                stop = f"collection ran past its {cfg['secs']} s budget; stopped at {rel!r}"
            if stop:
                break
            target = os.path.join(out, rel)
            try:
                st = os.lstat(path)
                mode = st.st_mode
                if stat.S_ISDIR(mode):
                    os.mkdir(target, 0o755)
                elif stat.S_ISLNK(mode):
                    os.symlink(os.readlink(path), target)
                elif stat.S_ISFIFO(mode):
                    os.mkfifo(target)
                elif not stat.S_ISREG(mode):
                    note(label, "a special file (device or socket), not collected")
                elif (st.st_dev, st.st_ino) in seen:
                    os.link(seen[(st.st_dev, st.st_ino)], target)
                elif st.st_size > cfg["max_file"]:
                    allocated = st.st_blocks * 512
                    sparse = f"; sparse: {allocated} bytes allocated" if allocated < st.st_size else ""
                    note(label, f"larger than {cfg['max_file']} bytes ({st.st_size} bytes{sparse}), not "
                         "collected: skipped by its size, unread")
                elif total + st.st_size > cfg["max_tree"]:
                    note(label, f"{top}/ holds more than {cfg['max_tree']} bytes; not collected")
                else:
                    copy(path, target, st.st_size)
                    total += st.st_size
                    if st.st_nlink > 1:
                        seen[(st.st_dev, st.st_ino)] = target
            except OSError as exc:
                note(label, f"not collected ({exc.strerror or exc})")
        if stop:
            break
    if stop:
        note(top + "/", stop)
if notes > cfg["max_notes"]:
    print(json.dumps({"path": "", "note": f"{notes - cfg['max_notes']} more notes not shown"}), flush=True)
"""


def collect_trees(
    client: Any,
    agent: Any,
    image_id: str,
    trees: dict[str, Path],
    notes: list[str],
    labels: dict[str, str],
    secs: float = COLLECT_SECS,
    max_file_bytes: int = extract.MAX_FILE_BYTES,
    max_tree_bytes: int = extract.MAX_TREE_BYTES,
    max_members: int = extract.MAX_TREE_MEMBERS,
) -> dict[str, int]:
    """Copy each container folder of ``trees`` (container path → host destination) out of ``agent``.

    ``agent`` is the stopped agent container whose folders are volumes; ``image_id`` is the env image the
    collector runs. Returns the files written per folder; every skip and refusal is appended to ``notes``.
    """
    config = {
        "trees": list(trees),
        "out": OUT,
        "secs": secs,
        "max_file": max_file_bytes,
        "max_tree": max_tree_bytes,
        "max_members": max_members,
        "max_notes": MAX_NOTES,
    }
    collector = client.containers.create(
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
        collector.start()
        try:
            collector.wait(timeout=secs + _GRACE_SECS)
        except Exception as exc:  # noqa: BLE001 - a collector past its grace is killed, its copies kept
            if not is_engine_failure(exc) and "timed out" not in str(exc).lower():
                raise
            collector.kill()
            notes.append(f"collection: the collector ran past {secs + _GRACE_SECS} s and was stopped")
        output = collector.logs(stdout=True, stderr=True, tail=MAX_NOTES + 20).decode("utf-8", "replace")
        for line in output.splitlines():
            try:
                item = json.loads(line)
                notes.append(f"{item['path']}: {item['note']}" if item["path"] else str(item["note"]))
            except (ValueError, KeyError, TypeError):
                notes.append(f"collection: {line[:500]}")
        deadline = time.monotonic() + secs
        for path, dest in trees.items():
            top = path.rstrip("/").rsplit("/", 1)[-1]
            written[top] = extract.fetch_tree(
                collector,
                f"{OUT}/{top}",
                dest,
                notes,
                max_file_bytes,
                max_tree_bytes,
                max_members,
                deadline=deadline,
            )
    finally:
        try:
            collector.remove(force=True, v=True)
        except Exception as exc:  # noqa: BLE001 - a leftover must not cost the cell its result
            if not is_engine_failure(exc):
                raise
            notes.append(f"container {collector.name}: not removed ({exc})")
    return written
