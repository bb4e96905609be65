"""Content hashes for lineage: files, and folders as a sorted manifest of (relative path, file hash)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

_CHUNK = 1 << 20


def sha256_file(path: Path) -> str:
    """Hex sha256 of one file's bytes, read in chunks."""
    digest = hashlib.sha256()
    with path.open("rb") as fh:
        while chunk := fh.read(_CHUNK):
            digest.update(chunk)
    return digest.hexdigest()


def sha256_tree(path: Path, exclude: tuple[str, ...] = ("__pycache__",)) -> str:
    """Hex sha256 of a folder: every regular file's relative path and content hash, in sorted order.

    Symlinks are hashed by their target text, never followed. A single file hashes as its manifest of one.
    """
    digest = hashlib.sha256()
    if path.is_file():
        digest.update(f"{path.name}\0{sha256_file(path)}\n".encode())
        return digest.hexdigest()
    for item in sorted(path.rglob("*")):
        rel = item.relative_to(path)
        if any(part in exclude for part in rel.parts) or item.suffix == ".pyc":
            continue
        if item.is_symlink():
            digest.update(f"{rel.as_posix()}\0link:{item.readlink()}\n".encode())
        elif item.is_file():
            digest.update(f"{rel.as_posix()}\0{sha256_file(item)}\n".encode())
    return digest.hexdigest()


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
