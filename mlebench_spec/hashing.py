"""Content hashes for lineage: files, and folders as a sorted manifest of (relative path, file hash)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
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

    ``progress`` is called with the size of each chunk read (a progress bar's ``update``).
    """
    sha, md5 = hashlib.sha256(), hashlib.md5(usedforsecurity=False)
    with path.open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            sha.update(chunk)
            md5.update(chunk)
            if progress is not None:
                progress(len(chunk))
    return sha.hexdigest(), md5.hexdigest()


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
