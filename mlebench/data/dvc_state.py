"""Hand DVC the content hashes we computed while writing, so its commit never reads those files again.

DVC keeps, per workspace path, the md5 of each file it has hashed, keyed by the file's inode, mtime and size
(its *state*, an SQLite database under the repository's site cache folder). When ``dvc repro`` records a
stage, it hashes every output file it finds no fresh entry for. The prepare stage reads each file it wrote
exactly once, for the manifest, computing sha256 and md5 in the same pass
(:func:`mlebench_spec.manifest.write_manifest`); :func:`record_md5s` then stores those md5s in DVC's state
under the files' final paths, so DVC's commit finds them and only stats the files. An entry is DVC's own
record, checked by DVC against the file's inode, mtime and size before use: a file changed afterwards is
hashed again, never trusted.

Outside a DVC repository (``mlebench prepare --data-dir``, tests in a temporary folder) nothing is recorded.
"""

from __future__ import annotations

import os
from pathlib import Path

from mlebench.data.dvc_internals import record_state_md5s

__all__ = ["dvc_root", "record_md5s"]


def dvc_root(path: Path) -> Path | None:
    """Return the DVC repository holding ``path`` (the nearest parent with a ``.dvc`` folder), or None."""
    for folder in [path, *path.parents]:
        if (folder / ".dvc").is_dir():
            return folder
    return None


def record_md5s(md5s: dict[Path, str]) -> int:
    """Store each file's md5 in its repository's DVC state; return how many were stored (0 outside one).

    ``md5s`` maps files (as they are now, after any rename into place) to their hex md5.
    """
    if not md5s:
        return 0
    first = Path(os.path.realpath(next(iter(md5s))))
    root = dvc_root(first.parent)
    if root is None:
        return 0
    folders: dict[Path, str] = {}  # resolved once per folder, not once per file (25,000 images)
    real: dict[str, str] = {}
    for path, md5 in md5s.items():
        if path.parent not in folders:
            folders[path.parent] = os.path.realpath(path.parent)
        real[os.path.join(folders[path.parent], path.name)] = md5
    record_state_md5s(root, real)  # DVC's state is private to it: written through its door
    return len(md5s)
