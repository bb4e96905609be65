"""Running an agent as a process of this host (the local and sandbox runners), and copying out what it left.

:func:`supervise` starts it in a session of its own and kills the whole process group at the wall-clock
limit (:func:`kill_group`: SIGTERM, then SIGKILL after a grace period); :func:`copy_file_out` copies one
regular file out without following symlinks and within a size bound; :func:`snapshot_copy` is the same
copy for the any-time snapshots (:mod:`mlebench.execution.snapshots`); :func:`collect_outputs` copies the
output folders with the bounded collector every runner uses.
"""

from __future__ import annotations

import os
import shutil
import signal
import stat
import subprocess
from pathlib import Path

from mlebench.execution import collector
from mlebench.execution.snapshots import SNAPSHOTS_DIR, Copy

KILL_GRACE_SECS = 5
MAX_COPY_BYTES = 512 * 1024 * 1024


def supervise(
    command: list[str], cwd: Path, env: dict[str, str], limit: int, log: Path
) -> tuple[str, int | None]:
    """Run ``command`` (output to ``log``) for at most ``limit`` seconds; return its status and exit code.

    ``ok`` or ``agent_error`` with the exit code; ``agent_timeout`` (no code) when the limit ran out.
    """
    with log.open("wb") as fh:
        proc = subprocess.Popen(
            command,
            cwd=cwd,
            env=env,
            stdout=fh,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            code = proc.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            kill_group(proc)
            fh.write(f"\n[runner] killed at the wall-clock limit of {limit} s\n".encode())
            return "agent_timeout", None
    return ("ok" if code == 0 else "agent_error"), code


def kill_group(proc: subprocess.Popen) -> None:
    """Stop ``proc``'s process group: SIGTERM, then SIGKILL after :data:`KILL_GRACE_SECS`."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(proc.pid, sig)
        except ProcessLookupError:
            return
        try:
            proc.wait(timeout=KILL_GRACE_SECS)
            return
        except subprocess.TimeoutExpired:
            continue


def copy_file_out(src: Path, dest: Path, notes: list[str]) -> bool:
    """Copy ``src`` to ``dest`` when it is a regular file within :data:`MAX_COPY_BYTES` (else a note)."""
    if not os.path.lexists(src):
        return False
    mode = src.lstat().st_mode
    if not stat.S_ISREG(mode):
        notes.append(f"{src.name}: not a regular file (symlink or special file), not collected")
        return False
    if src.lstat().st_size > MAX_COPY_BYTES:
        notes.append(f"{src.name}: larger than {MAX_COPY_BYTES} bytes, not collected")
        return False
    shutil.copyfile(src, dest, follow_symlinks=False)
    return True


def snapshot_copy(src: Path) -> Copy:
    """Copy the agent's current submission with the final copy's checks (any-time snapshots)."""

    def copy(dest: Path, notes: list[str]) -> str:
        if not os.path.lexists(src):
            return "missing"
        before = len(notes)
        return (
            "copied" if copy_file_out(src, dest, notes) else ("refused" if len(notes) > before else "missing")
        )

    return copy


def clear_snapshots(out: Path) -> None:
    """Remove an earlier run's snapshots from the run dir."""
    folder = out / SNAPSHOTS_DIR
    if folder.is_symlink():
        folder.unlink()
    elif folder.exists():
        shutil.rmtree(folder)


def collect_outputs(trees: dict[Path, Path], notes: list[str]) -> None:
    """Copy the agent's output folders (source → run dir) with the bounded collector every runner uses."""
    collector.collect(
        {str(src): str(dest) for src, dest in trees.items()}, notes, collector.Limits.from_env()
    )


def make_read_only(path: Path) -> None:
    """Make a copied tree read-only (folders 555, files 444), symlinks left as they are."""
    for item in [path, *path.rglob("*")]:
        if item.is_symlink():
            continue
        item.chmod(0o555 if item.is_dir() else 0o444)
