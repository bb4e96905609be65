"""The prepared split's manifest: the sha256 and size of every public and private file, checked before use.

``prepare`` writes ``<prepared>/manifest.json`` beside ``public/`` and ``private/`` (never inside either),
in the same atomic step as the split. Every grading path checks the answers against it
(:func:`verify_split` on ``private/``: the grade stage, host or container grading, ``mlebench grade``,
``grade-sample`` and ``verify-bundle``) and the run stage checks ``public/`` before an agent starts; a
changed, missing or unlisted file is refused with a :class:`~mlebench_spec.errors.DataError` naming it.

Where it lives, and why one file: an agent is only ever given ``public/`` (a copy under the local runner,
a read-only mount under Docker), so it never sees the manifest. The public hashes are harmless anyway; the
private ones reveal nothing of the answers short of guessing a whole file byte for byte, and DVC already
keeps per-file hashes of ``private/`` in its cache. A DVC out of the prepare stage, it travels with the
default remote, so a machine that pulls only ``public/`` can still check what its agents are given.

Cost: sizes are compared first (a ``stat`` per file), so a file of the wrong length is refused without
reading anything; the rest is hashed in 1 MiB chunks, once per process (:func:`split_sha256` hands the
verified tree hash to the lineage instead of hashing the folder a second time).

A prepared folder without a manifest (prepared before manifests existed, or MLE-bench v1's layout) is
refused, with the fix, unless the caller asks to warn instead: ``mlebench grade``, ``grade-sample`` and
``verify-bundle`` do when the user points ``--data-dir`` at a folder of their own (v1 directories cannot be
re-prepared by this tool without a fresh download, and the warning says the answers were not checked). The
pipeline's own ``data/prepared`` always has one: the prepare stage writes it and DVC tracks it.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from mlebench_spec.errors import DataError
from mlebench_spec.files import write_json
from mlebench_spec.hashing import sha256_file, sha256_md5_file, sha256_tree, tree_digest, tree_files

MANIFEST = "manifest.json"
FORMAT = 1
SIDES = ("public", "private")

_VERIFIED: dict[Path, tuple[str, tuple]] = {}
"""The folders this process has verified: their tree hash, and each file's size and mtime when verified.

A folder is hashed once per process; a later check only re-stats its files (a file changed since is
hashed again)."""
_WARNED: set[Path] = set()


def write_manifest(prepared: Path, md5s: dict[Path, str] | None = None) -> Path:
    """Record every file of ``prepared/{public,private}`` in ``prepared/manifest.json``; return its path.

    Each file is read once: its md5 (DVC's content hash) comes from the same pass as its sha256 and is put
    in ``md5s`` (path -> hex) when given, so the caller can hand it to DVC instead of DVC reading the file
    again (:mod:`mlebench.data.dvc_state`).
    """
    from tqdm import tqdm  # a bar on a terminal only: the pass reads every prepared byte

    listed = {side: tree_files(prepared / side) if (prepared / side).is_dir() else [] for side in SIDES}
    total = sum(p.stat().st_size for files in listed.values() for _, p in files if not p.is_symlink())
    with tqdm(total=total, desc="hashing", unit="B", unit_scale=True, disable=None, leave=False) as bar:
        files = {side: _listing(listed[side], md5s, bar.update) for side in SIDES}
    path = prepared / MANIFEST
    write_json(path, {"format": FORMAT, "files": files})
    return path


def verify_split(folder: Path, *, missing: str = "refuse") -> str:
    """Check ``folder`` (a prepared ``public/`` or ``private/``) against its manifest; return its tree hash.

    The manifest is ``folder.parent/manifest.json`` and the folder's name picks its section. Raises
    DataError naming every changed, missing and unlisted file. Without a manifest it raises too, unless
    ``missing`` is ``"warn"``: then it prints a warning and hashes the folder unchecked.
    """
    key = folder.resolve()
    cached = _VERIFIED.get(key)
    if cached and cached[1] == _stats(folder):
        return cached[0]
    manifest = folder.parent / MANIFEST
    if not manifest.is_file():
        why = (
            f"{manifest} is missing, so the files in {folder} cannot be checked (prepared by an older "
            "version of this tool, or MLE-bench v1's layout)"
        )
        if missing != "warn":
            raise DataError(f"{why}; re-prepare it: `dvc repro` or `mlebench prepare -c <id>`")
        if key not in _WARNED:
            print(f"WARNING: {why}; using it unchecked", file=sys.stderr)
            _WARNED.add(key)
        return sha256_tree(folder)
    listed = _section(manifest, folder.name)
    problems, hashes = [], {}
    present = dict(tree_files(folder)) if folder.is_dir() else {}
    for rel in sorted(set(listed) - set(present)):
        problems.append(f"{folder / rel}: listed in {manifest} but missing")
    for rel in sorted(set(present) - set(listed)):
        problems.append(f"{folder / rel}: not in {manifest} (added after prepare)")
    for rel in sorted(set(listed) & set(present)):
        path, want = present[rel], listed[rel]
        if path.is_symlink() or "link" in want:
            target = str(path.readlink()) if path.is_symlink() else ""
            if not target or want.get("link") != target:
                what = f"a symlink to {target}" if target else "a regular file"
                problems.append(f"{path}: {what} where {manifest} records {want}")
            hashes[rel] = f"link:{target}"
            continue
        size = path.stat().st_size
        if size != want["bytes"]:
            problems.append(f"{path}: {size} bytes where {manifest} records {want['bytes']}")
            continue
        digest = sha256_file(path)
        if digest != want["sha256"]:
            problems.append(f"{path}: sha256 {digest[:16]}… differs from {manifest}'s {want['sha256'][:16]}…")
        hashes[rel] = digest
    if problems:
        raise DataError(
            f"{folder} does not match its manifest: refusing to use it (re-run prepare, or restore the "
            "files):\n  " + "\n  ".join(problems)
        )
    _VERIFIED[key] = (tree_digest(hashes), _stats(folder))
    return _VERIFIED[key][0]


def split_sha256(folder: Path) -> str:
    """Return the tree hash of ``folder``: as verified in this process, else hashed now (unchecked)."""
    cached = _VERIFIED.get(folder.resolve())
    return cached[0] if cached and cached[1] == _stats(folder) else sha256_tree(folder)


def _stats(folder: Path) -> tuple:
    return tuple((rel, (st := p.lstat()).st_size, st.st_mtime_ns) for rel, p in tree_files(folder))


def _listing(
    files: list[tuple[str, Path]], md5s: dict[Path, str] | None, progress: Callable[[int], object]
) -> dict[str, dict[str, Any]]:
    listing: dict[str, dict[str, Any]] = {}
    for rel, path in files:
        if path.is_symlink():
            listing[rel] = {"link": str(path.readlink())}
            continue
        sha, md5 = sha256_md5_file(path, progress)
        listing[rel] = {"sha256": sha, "bytes": path.stat().st_size}
        if md5s is not None:
            md5s[path] = md5
    return listing


def _section(manifest: Path, side: str) -> dict[str, dict[str, Any]]:
    try:
        data = json.loads(manifest.read_text(encoding="utf-8"))
        return data["files"][side]
    except (json.JSONDecodeError, KeyError, TypeError) as exc:
        raise DataError(
            f"{manifest}: not a manifest with a files.{side} section ({type(exc).__name__}: {exc}); "
            "re-run prepare"
        ) from None
