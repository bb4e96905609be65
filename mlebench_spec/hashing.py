"""Content hashes for lineage: files, and folders as a sorted manifest of (relative path, file hash)."""

from __future__ import annotations

import hashlib
import json
import os
import queue
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path, PurePosixPath
from typing import Any

_CHUNK = 1 << 20


def sha256_file(path: Path) -> str:
    """Hex sha256 of one file's bytes, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def sha256_md5_file(path: Path, progress: Callable[[int], object] | None = None) -> tuple[str, str]:
    """Hex sha256 and md5 of one file from a single read: the manifest's hash and DVC's, in one pass.

    ``progress`` is called with the size of each chunk read (a progress bar's ``update``). A file written
    by this process whose hashes were taken while writing it (:func:`remember_hashes`) is not read again.
    """
    known = written_hashes(path)
    if known is not None:
        if progress is not None:
            progress(path.stat().st_size)
        return known
    with ContentHashes(parallel=path.stat().st_size >= PARALLEL_MIN) as hashes, path.open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            hashes.update(chunk)
            if progress is not None:
                progress(len(chunk))
    return hashes.hexdigests()


PARALLEL_MIN = 8 << 20
"""Streams at least this long hash on two threads; shorter ones inline (a thread hand-off costs ~50 µs)."""

_POOL: ThreadPoolExecutor | None = None


class ContentHashes:
    """The manifest's sha256 and DVC's md5 of one stream of bytes, fed in chunks as they are read or written.

    With ``parallel``, md5 (the slower, about half sha256's speed with SHA instructions: docs/performance.md)
    runs on a worker thread fed through a short queue (hashlib releases the GIL), while sha256 runs in the
    caller's thread beside its reading and writing: the two halves take about as long, so on two cores the
    hashes cost little more than the md5 alone. A chunk must not change after it is passed (``bytes`` never
    do).
    """

    def __init__(self, *, parallel: bool = False) -> None:
        self._sha, self._md5 = hashlib.sha256(), hashlib.md5(usedforsecurity=False)
        self._queue: queue.Queue[bytes | None] | None = None
        self._done: Future | None = None
        if parallel:
            self._queue = queue.Queue(maxsize=8)
            self._done = _pool().submit(self._drain, self._queue, self._md5)

    @staticmethod
    def _drain(chunks: queue.Queue[bytes | None], md5: Any) -> None:  # noqa: ANN401 - hashlib's type
        while (chunk := chunks.get()) is not None:
            md5.update(chunk)

    def update(self, chunk: bytes) -> None:
        """Add ``chunk`` to both hashes."""
        if self._queue is None:
            self._md5.update(chunk)
        else:
            self._queue.put(chunk)
        self._sha.update(chunk)

    def hexdigests(self) -> tuple[str, str]:
        """Return (sha256, md5) in hex of everything passed; no more chunks may follow."""
        self._finish()
        return self._sha.hexdigest(), self._md5.hexdigest()

    def __enter__(self) -> ContentHashes:
        return self

    def __exit__(self, *exc: object) -> None:
        self._finish()  # the worker stops even when the caller failed half-way, so nothing waits on it

    def _finish(self) -> None:
        if self._queue is not None and self._done is not None:
            self._queue.put(None)
            self._done.result()
            self._queue = None


def _pool() -> ThreadPoolExecutor:
    global _POOL
    if _POOL is None:
        _POOL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="md5")
    return _POOL


_WRITTEN: dict[tuple[int, ...], tuple[str, str]] = {}
"""Hashes taken while this process wrote a file, keyed by the file's identity and state (:func:`_key`)."""


def _key(st: os.stat_result) -> tuple[int, ...]:
    # ctime changes with every change to the inode (a write, chmod, utime, a new hard link) and cannot be
    # set back, so an entry never describes a file changed after it was hashed, nor a reused inode.
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns, st.st_ctime_ns)


def remember_hashes(path: Path, sha256: str, md5: str) -> None:
    """Record the (sha256, md5) of ``path`` taken while writing it (the file closed), for this process."""
    _WRITTEN[_key(os.stat(path))] = (sha256, md5)


def written_hashes(path: Path) -> tuple[str, str] | None:
    """Return the (sha256, md5) remembered for ``path`` if the file is unchanged since, else None."""
    if not _WRITTEN:
        return None
    return _WRITTEN.get(_key(os.stat(path)))


def hard_link(src: Path, dest: Path) -> None:
    """``os.link(src, dest)``, keeping any remembered hashes of ``src`` valid for both names.

    A new link changes the inode's ctime, which would otherwise make the file look changed.
    """
    before = _WRITTEN.pop(_key(os.stat(src)), None) if _WRITTEN else None
    os.link(src, dest)
    if before is not None:
        _WRITTEN[_key(os.stat(src))] = before


def sha256_tree(path: Path, exclude: tuple[str, ...] = ("__pycache__",)) -> str:
    """Hex sha256 of a folder: every regular file's relative path and content hash, in sorted order.

    Symlinks are hashed by their target text, never followed. A single file hashes as its manifest of one.
    """
    if path.is_file():
        return tree_digest({path.name: sha256_file(path)})
    return tree_digest({rel: _entry_hash(item) for rel, item in tree_files(path, exclude)})


def tree_files(path: Path, exclude: tuple[str, ...] = ("__pycache__",)) -> list[tuple[str, Path]]:
    """Every regular file and symlink under ``path`` (bytecode and ``exclude``-d folders left out), sorted."""
    out = []
    for item in sorted(path.rglob("*")):
        rel = item.relative_to(path)
        if any(part in exclude for part in rel.parts) or item.suffix == ".pyc":
            continue
        if item.is_symlink() or item.is_file():
            out.append((rel.as_posix(), item))
    return out


def tree_digest(hashes: dict[str, str]) -> str:
    """Return the :func:`sha256_tree` of a folder from its files' hashes (POSIX relative path → hash)."""
    digest = hashlib.sha256()
    for rel in sorted(hashes, key=PurePosixPath):
        digest.update(f"{rel}\0{hashes[rel]}\n".encode())
    return digest.hexdigest()


def _entry_hash(item: Path) -> str:
    return f"link:{item.readlink()}" if item.is_symlink() else sha256_file(item)


def sha256_json(data: Any) -> str:
    """Hex sha256 of a JSON-able value in canonical form (sorted keys, no spaces)."""
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def git_blob_id(path: Path) -> str:
    r"""Return the git blob id of a file's bytes (what ``git ls-tree`` and ``git hash-object`` print).

    Examples
    --------
    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     p = Path(d) / "hello.txt"
    ...     _ = p.write_bytes(b"hello\n")
    ...     git_blob_id(p)
    'ce013625030ba8dba906f756967f9e9ca394464a'

    """
    digest = hashlib.sha1(usedforsecurity=False)
    digest.update(f"blob {path.stat().st_size}\0".encode())
    with path.open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()
