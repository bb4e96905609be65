r"""The one bounded collector of an agent's output folders (``code/``, ``logs/``), under every runner.

Whatever the agent left in its folders, collecting them costs the host at most a fixed budget and never
raises: the folders are walked without recursion (a tree 100,000 levels deep is one loop), by ``lstat``
alone, names sorted as bytes, and each entry is copied, or skipped with a note, by these rules:

- a name that is not valid UTF-8, or holds a control character, is skipped (DVC cannot record it: "surrogates
  not allowed"); the note shows it escaped (``\\xff``), so the same tree gives the same notes;
- past ``max_depth`` levels, or a relative path longer than ``max_path_chars``, a folder is not entered and
  a file not copied (DVC recursed through deep trees until a RecursionError stopped the stage);
- symlinks, fifos, devices and sockets are not collected, nor the second link to a file (hard links);
- a regular file is judged by its apparent size (what a copy reads): one larger than ``max_file_bytes`` is
  skipped unread (the note gives the blocks it holds: a sparse file says so), and the files copied count
  by it against ``max_tree_bytes``; runs of zeros are written as holes, so the host stores no more than
  the agent's disk held (its allocated size) nor than the caps (the apparent size) allow;
- past ``max_members`` entries, or past the time budget ``secs`` (one for all folders), collection stops
  there.

Every skip is a note (``<folder>/<path>: why``), at most ``max_notes`` and then a count, which the runner
keeps in run.json's ``extraction_notes``. Host runners (local, sandbox) call :func:`collect` in-process;
Docker and Podman run this very file with the env image's Python in a short-lived collector container
(:mod:`mlebench.execution.docker.collect`), which prints the notes as JSON lines. It therefore imports
only the standard library. :func:`remove_tree` removes such a tree without recursion either.
"""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, fields

_CHUNK = 1 << 20
_HOLE = 64 << 10
_ZEROS = bytes(_HOLE)
_LISTING_CEILING = 10
"""A folder's names are read (to sort them) up to this many times ``max_members``, no more."""
LIMITS_ENV = "MLEBENCH_COLLECT_LIMITS"
"""A JSON object overriding :class:`Limits` fields (lowered by the tests that build hostile trees)."""


@dataclass(frozen=True)
class Limits:
    """What one cell's collection may cost: per folder (files, bytes, entries), and in all (``secs``)."""

    max_file_bytes: int = 512 * 1024 * 1024
    max_tree_bytes: int = 1024 * 1024 * 1024
    max_members: int = 100_000
    max_depth: int = 64
    max_path_chars: int = 1024
    secs: float = 120.0
    max_notes: int = 200

    @classmethod
    def from_env(cls, environ: dict[str, str] | None = None) -> Limits:
        """Return the defaults with the overrides of ``$MLEBENCH_COLLECT_LIMITS`` (unknown keys: an error)."""
        text = (os.environ if environ is None else environ).get(LIMITS_ENV, "")
        if not text:
            return cls()
        given = json.loads(text)
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(given) - known)
        if not isinstance(given, dict) or unknown:
            raise ValueError(f"${LIMITS_ENV}: unknown keys {unknown}; known: {sorted(known)}")
        return cls(**given)


class _Notes:
    def __init__(self, limit: int, sink: list[str]) -> None:
        self.limit, self.sink, self.count = limit, sink, 0

    def add(self, text: str) -> None:
        self.count += 1
        if self.count <= self.limit:
            self.sink.append(text)

    def close(self) -> None:
        if self.count > self.limit:
            self.sink.append(f"collection: {self.count - self.limit} more notes not shown")


def shown(name: bytes) -> str:
    r"""Return a name as notes show it: UTF-8 where valid, other bytes and controls escaped (``\xff``)."""
    text = name.decode("utf-8", "backslashreplace")
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text)


def _name_problem(name: bytes) -> str:
    try:
        text = name.decode("utf-8")
    except UnicodeDecodeError:
        return "a name that is not valid UTF-8"
    if any(ord(c) < 32 or ord(c) == 127 for c in text):
        return "a name holding a control character"
    return ""


def collect(
    trees: dict[str, str], notes: list[str], limits: Limits | None = None, deadline: float | None = None
) -> dict[str, int]:
    """Copy each folder of ``trees`` (source → destination, made afresh) by the rules of the module.

    Returns the files copied per destination folder's name. Never raises: a failure is a note.
    """
    limits = limits or Limits()
    deadline = time.monotonic() + limits.secs if deadline is None else deadline
    sink = _Notes(limits.max_notes, notes)
    written: dict[str, int] = {}
    for src, dest in trees.items():
        top = os.path.basename(dest.rstrip("/"))
        try:
            written[top] = _collect_tree(os.fsencode(src), os.fsencode(dest), top, limits, deadline, sink)
        except Exception as exc:  # noqa: BLE001 - collection never raises: what is copied stays
            sink.add(f"{top}/: collection stopped ({type(exc).__name__}: {exc})")
            written.setdefault(top, 0)
    sink.close()
    return written


def _collect_tree(src: bytes, dest: bytes, top: str, limits: Limits, deadline: float, sink: _Notes) -> int:
    remove_tree(dest)  # the destination is replaced whole (an earlier run's files never linger)
    os.makedirs(dest)
    try:
        info = os.lstat(src)
    except FileNotFoundError:
        return 0
    if not stat.S_ISDIR(info.st_mode):
        sink.add(f"{top}/: not a folder (symlink or file), not collected")
        return 0
    total = members = files = 0
    seen: set[tuple[int, int]] = set()
    stack: list[tuple[bytes, int]] = [(b"", 0)]  # relative folder, its depth
    while stack:
        rel_dir, depth = stack.pop()
        try:
            with os.scandir(os.path.join(src, rel_dir) if rel_dir else src) as it:
                names = []  # sorted, so the same tree gives the same copy; read up to a ceiling only
                for entry in it:
                    names.append(entry.name)
                    if len(names) > _LISTING_CEILING * limits.max_members:
                        break
                names.sort()
        except OSError as exc:
            sink.add(f"{top}/{shown(rel_dir)}: not collected ({exc.strerror or exc})")
            continue
        folders = []
        for name in names:
            rel = os.path.join(rel_dir, name) if rel_dir else name
            label = f"{top}/{shown(rel)}"
            members += 1
            if members > limits.max_members:
                sink.add(f"{top}/: more than {limits.max_members} entries; collection stopped at {label}")
                return files
            if time.monotonic() > deadline:
                sink.add(f"{top}/: collection ran past its {limits.secs} s budget; stopped at {label}")
                return files
            problem = _name_problem(name)
            if not problem and len(rel) > limits.max_path_chars:
                problem = f"a path longer than {limits.max_path_chars} bytes"
            if problem:
                sink.add(f"{label}: {problem}, not collected")
                continue
            path, target = os.path.join(src, rel), os.path.join(dest, rel)
            try:
                info = os.lstat(path)
                mode = info.st_mode
                if stat.S_ISDIR(mode):
                    if depth + 1 > limits.max_depth:
                        sink.add(f"{label}: deeper than {limits.max_depth} levels, not collected")
                        continue
                    os.mkdir(target, 0o755)
                    folders.append((rel, depth + 1))
                elif stat.S_ISLNK(mode):
                    sink.add(f"{label}: symlink, not collected")
                elif not stat.S_ISREG(mode):
                    sink.add(f"{label}: a special file (fifo, device or socket), not collected")
                elif (info.st_dev, info.st_ino) in seen:
                    sink.add(f"{label}: a hard link, not collected")
                else:
                    if info.st_nlink > 1:
                        seen.add((info.st_dev, info.st_ino))
                    allocated, size = info.st_blocks * 512, info.st_size  # a copy reads the apparent size
                    if size > limits.max_file_bytes:
                        sparse = f"; sparse: {allocated} bytes allocated" if allocated < info.st_size else ""
                        sink.add(
                            f"{label}: larger than {limits.max_file_bytes} bytes ({info.st_size} bytes"
                            f"{sparse}), not collected: skipped by its size, unread"
                        )
                    elif total + size > limits.max_tree_bytes:
                        sink.add(
                            f"{label}: {top}/ holds more than {limits.max_tree_bytes} bytes; not collected"
                        )
                    else:
                        total += size
                        _copy(path, target, info, deadline)
                        files += 1
            except OSError as exc:
                sink.add(f"{label}: not collected ({exc.strerror or exc})")
        stack.extend(reversed(folders))  # depth first, in name order
    return files


def _copy(path: bytes, target: bytes, info: os.stat_result, deadline: float) -> None:
    """Copy at most the ``lstat`` size of the file at ``path`` (not followed), zeros as holes."""
    fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    try:
        now = os.fstat(fd)
        if (now.st_dev, now.st_ino) != (info.st_dev, info.st_ino) or not stat.S_ISREG(now.st_mode):
            raise OSError("the file changed while it was collected")
        out = os.open(target, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o644)
        try:
            left, length = info.st_size, 0
            while left > 0:
                chunk = os.read(fd, min(_CHUNK, left))
                if not chunk:
                    break
                write_holey(out, chunk)
                left -= len(chunk)
                length += len(chunk)
                if time.monotonic() > deadline:
                    raise OSError("copy stopped: the collection's time budget ran out")
            os.ftruncate(out, length)
        finally:
            os.close(out)
    finally:
        os.close(fd)


def write_holey(fd: int, chunk: bytes) -> None:
    """Write ``chunk`` at ``fd``'s offset, its blocks of zeros as holes (the caller truncates at the end)."""
    for at in range(0, len(chunk), _HOLE):
        block = chunk[at : at + _HOLE]
        if block == _ZEROS[: len(block)]:
            os.lseek(fd, len(block), os.SEEK_CUR)
        else:
            view = memoryview(block)
            while view:
                view = view[os.write(fd, view) :]


def remove_tree(path: str | os.PathLike[str]) -> None:
    """Remove a folder and all it holds, without recursion, making unreadable folders readable first."""
    root = os.fsencode(os.fspath(path))
    if not os.path.lexists(root):
        return
    if not os.path.isdir(root) or os.path.islink(root):
        os.unlink(root)
        return
    stack = [root]
    stuck: set[bytes] = set()  # folders that would not go: not entered again
    while stack:
        folder = stack[-1]
        try:
            os.chmod(folder, 0o700)
        except OSError:
            pass
        pushed = False
        try:
            with os.scandir(folder) as it:
                entries = list(it)
        except OSError:
            entries = []
        for entry in entries:
            try:
                if entry.is_dir(follow_symlinks=False):
                    if entry.path in stuck:
                        continue
                    stack.append(entry.path)
                    pushed = True
                else:
                    os.unlink(entry.path)
            except OSError:
                pass
        if not pushed:
            stack.pop()
            try:
                os.rmdir(folder)
            except OSError:
                stuck.add(folder)


@contextlib.contextmanager
def scratch_dir(prefix: str) -> Iterator[str]:
    """Make a temporary folder, removed by :func:`remove_tree` (``tempfile``'s recursion fails deep)."""
    path = tempfile.mkdtemp(prefix=prefix)
    try:
        yield path
    finally:
        remove_tree(path)


def main(argv: list[str]) -> int:
    """In a collector container: ``{"trees": {src: dest}, "limits": {...}}`` → notes as JSON lines."""
    config = json.loads(argv[1])
    notes: list[str] = []
    limits = Limits(**config.get("limits", {}))
    collect(config["trees"], notes, limits)
    for note in notes:
        print(json.dumps({"note": note}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))

__all__ = ["LIMITS_ENV", "Limits", "collect", "remove_tree", "shown", "write_holey"]
