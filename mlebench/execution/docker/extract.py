"""Copy a stopped container's outputs to the host without trusting anything the agent made.

Outputs come out through the engine's archive API (``container.get_archive``), as a tar stream, and every
member is checked before anything is written: only regular files and folders are written; symlinks, hard
links, devices and fifos are refused; a name that is absolute, holds ``..`` or would resolve outside the
destination is refused; files are created with ``O_NOFOLLOW | O_EXCL`` inside folders this module made
itself, so nothing can be written outside the cell's run directory. Sizes are bounded per file and per
tree, and a tree's extraction by a deadline. A stream skips a member only by reading it, so a member
larger than the file limit is read through only while the tree's byte budget allows, and otherwise ends
the extraction: folders reach this module through :mod:`.collect`, which leaves such files out by their
size before any byte is sent. Every refusal is noted
(``extraction_notes`` in run.json), never silently dropped.
"""

from __future__ import annotations

import os
import posixpath
import tarfile
import time
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import Any

from mlebench.execution.collector import shown, write_holey

MAX_FILE_BYTES = 512 * 1024 * 1024
MAX_TREE_BYTES = 1024 * 1024 * 1024
MAX_TREE_MEMBERS = 100_000
MAX_DEPTH = 64
_CHUNK = 1 << 20
# Go's os.FileMode type bits, as the engine reports them in an archive's path stat.
_GO_TYPE_BITS = (1 << 31) | (1 << 27) | (1 << 26) | (1 << 25) | (1 << 24) | (1 << 21) | (1 << 19)
_GO_SYMLINK = 1 << 27
_GO_DIR = 1 << 31


class _ChunkReader:
    """A read-only file object over the engine's chunk iterator, counting the bytes it has passed on."""

    def __init__(self, chunks: Iterable[bytes]) -> None:
        self._chunks: Iterator[bytes] = iter(chunks)
        self._buffer = b""
        self.consumed = 0

    def read(self, size: int = -1) -> bytes:
        while size < 0 or len(self._buffer) < size:
            try:
                self._buffer += next(self._chunks)
            except StopIteration:
                break
        if size < 0:
            out, self._buffer = self._buffer, b""
        else:
            out, self._buffer = self._buffer[:size], self._buffer[size:]
        self.consumed += len(out)
        return out


def fetch_file(
    container: Any, path: str, dest: Path, notes: list[str], max_bytes: int = MAX_FILE_BYTES
) -> str:
    """Copy one regular file out of ``container`` to ``dest``: ``"copied"``, ``"missing"`` or ``"refused"``.

    A symlink (whatever it points to), a folder or any special file at ``path`` is refused with a note, as
    is a file larger than ``max_bytes`` (refused from the engine's stat, before any byte is read).
    """
    import docker.errors

    name = posixpath.basename(path)
    try:
        chunks, stat = container.get_archive(path)
    except docker.errors.NotFound:
        return "missing"
    refusal = _stat_refusal(stat, max_bytes)
    if refusal:
        notes.append(f"{name}: {refusal}, not collected")
        return "refused"
    reader = _ChunkReader(chunks)
    with tarfile.open(fileobj=reader, mode="r|") as tar:
        for member in tar:
            if member.name != name or not member.isreg() or member.size > max_bytes:
                notes.append(
                    f"{name}: the archive holds {_kind(member)} {member.name!r}, not a regular file; "
                    "not collected"
                )
                return "refused"
            source = tar.extractfile(member)
            assert source is not None  # a regular member always has a file object
            _write_new(dest, source)
            return "copied"
    return "missing"


def fetch_tree(
    container: Any,
    path: str,
    dest: Path,
    notes: list[str],
    max_file_bytes: int = MAX_FILE_BYTES,
    max_tree_bytes: int = MAX_TREE_BYTES,
    max_members: int = MAX_TREE_MEMBERS,
    deadline: float | None = None,
    max_depth: int = MAX_DEPTH,
) -> int:
    """Copy the folder ``path`` out of ``container`` into ``dest`` (created); return the files written.

    ``deadline`` (a ``time.monotonic()`` value) stops the extraction, with a note, when it passes.
    """
    import docker.errors

    top = posixpath.basename(path.rstrip("/"))
    try:
        chunks, stat = container.get_archive(path)
    except docker.errors.NotFound:
        notes.append(f"{top}/: missing in the container")
        return 0
    if stat.get("linkTarget") or not int(stat.get("mode", 0)) & _GO_DIR:
        notes.append(f"{top}/: not a folder in the container (symlink or file), not collected")
        return 0
    reader = _ChunkReader(chunks)
    try:
        return extract_tar(
            reader, top, dest, notes, max_file_bytes, max_tree_bytes, max_members, deadline, max_depth
        )
    finally:
        close = getattr(chunks, "close", None)
        if close is not None:  # stop the engine's stream where extraction stopped
            close()


def extract_tar(
    reader: Any,
    top: str,
    dest: Path,
    notes: list[str],
    max_file_bytes: int = MAX_FILE_BYTES,
    max_tree_bytes: int = MAX_TREE_BYTES,
    max_members: int = MAX_TREE_MEMBERS,
    deadline: float | None = None,
    max_depth: int = MAX_DEPTH,
) -> int:
    """Extract a tar stream whose members live under ``top/`` into ``dest``, refusing anything unsafe.

    A member larger than ``max_file_bytes`` is skipped, which in a stream means read through: only while
    that keeps within ``max_tree_bytes``; otherwise extraction stops there, with a note. It also stops
    past ``max_tree_bytes`` or ``max_members``, or when ``deadline`` (``time.monotonic()``) passes.
    """
    dest.mkdir(parents=True, exist_ok=True)
    root = dest.resolve()
    written = seen = 0
    with tarfile.open(fileobj=reader, mode="r|") as tar:
        for member in tar:
            seen += 1
            if seen > max_members:
                notes.append(f"{top}/: more than {max_members} entries; extraction stopped")
                break
            if getattr(reader, "consumed", 0) > max_tree_bytes:
                notes.append(
                    f"{top}/: more than {max_tree_bytes} bytes; extraction stopped at {member.name!r}"
                )
                break
            if deadline is not None and time.monotonic() > deadline:
                notes.append(f"{top}/: extraction ran past its time budget; stopped at {member.name!r}")
                break
            if member.isreg() and member.size > max_file_bytes:
                # A stream skips a member only by reading it: allowed while that stays in the tree's budget.
                if getattr(reader, "consumed", 0) + member.size > max_tree_bytes:
                    notes.append(
                        f"{member.name}: larger than {max_file_bytes} bytes ({member.size}), not collected; "
                        f"extraction of {top}/ stopped there rather than read it through"
                    )
                    break
                notes.append(f"{member.name}: larger than {max_file_bytes} bytes, not collected")
                continue
            rel = _relative(member.name, top)
            label = f"{top}/{rel}" if rel else member.name
            if rel is None:
                notes.append(
                    f"{member.name!r}: unsafe name (absolute, '..' or outside {top}/), not collected"
                )
                continue
            if rel == "":
                continue
            problem = _name_problem(rel, max_depth)
            if problem:
                notes.append(f"{shown(os.fsencode(label))}: {problem}, not collected")
                continue
            target = root.joinpath(*rel.split("/"))
            if not _inside(target, root):
                notes.append(f"{label}: would land outside the run directory, not collected")
                continue
            if not (member.isdir() or member.isreg()):
                notes.append(f"{label}: {_kind(member)}, not collected")
            else:
                try:
                    written += _extract_member(tar, member, root, rel.split("/"), target)
                except OSError as exc:
                    notes.append(f"{label}: not collected ({exc.strerror or exc})")
    return written


def _extract_member(
    tar: tarfile.TarFile, member: tarfile.TarInfo, root: Path, parts: list[str], target: Path
) -> int:
    if member.isdir():
        _make_dirs(root, parts)
        return 0
    _make_dirs(root, parts[:-1])
    source = tar.extractfile(member)
    assert source is not None  # a regular member always has a file object
    _write_new(target, source)
    return 1


def _name_problem(rel: str, max_depth: int) -> str:
    """Why DVC could not record a member's path (the collector's own rules, checked again), or ""."""
    try:
        rel.encode("utf-8")  # tarfile decodes other bytes as surrogates: DVC cannot encode them
    except UnicodeEncodeError:
        return "a name that is not valid UTF-8"
    if any(ord(c) < 32 or ord(c) == 127 for c in rel):
        return "a name holding a control character"
    if rel.count("/") > max_depth:
        return f"deeper than {max_depth} levels"
    return ""


def _stat_refusal(stat: dict[str, Any], max_bytes: int) -> str | None:
    mode = int(stat.get("mode", 0))
    if stat.get("linkTarget") or mode & _GO_SYMLINK:
        return f"is a symlink (to {stat.get('linkTarget')!r})"
    if mode & _GO_DIR:
        return "is a folder, not a file"
    if mode & _GO_TYPE_BITS:
        return "is a special file (device, fifo or socket), not a regular file"
    if int(stat.get("size", 0)) > max_bytes:
        return f"is larger than {max_bytes} bytes ({stat.get('size')} bytes)"
    return None


def _relative(name: str, top: str) -> str | None:
    """``name`` relative to ``top/``; None when it is absolute, climbs with ``..`` or is outside ``top``."""
    if name.startswith("/"):
        return None
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if not parts or parts[0] != top or any(p == ".." for p in parts):
        return None
    return "/".join(parts[1:])


def _inside(target: Path, root: Path) -> bool:
    parent = Path(os.path.realpath(target.parent))
    return parent == root or root in parent.parents


def _make_dirs(root: Path, parts: list[str]) -> None:
    """Create each folder under ``root``, refusing to pass through anything that is not a real folder."""
    current = root
    for part in parts:
        current = current / part
        try:
            os.mkdir(current, 0o755)
        except FileExistsError:
            if current.is_symlink() or not current.is_dir():
                raise OSError(f"{current} exists and is not a folder") from None


def _write_new(target: Path, source: Any) -> None:
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(target, flags, 0o644)
    try:
        length = 0
        while chunk := source.read(_CHUNK):
            write_holey(fd, chunk)  # a sparse file stays sparse on the host
            length += len(chunk)
        os.ftruncate(fd, length)
    finally:
        os.close(fd)


def _kind(member: tarfile.TarInfo) -> str:
    if member.issym():
        return f"a symlink (to {member.linkname!r})"
    if member.islnk():
        return f"a hard link (to {member.linkname!r})"
    if member.isdir():
        return "a folder"
    if member.isreg():
        return "a file"
    return "a special file (device or fifo)"
