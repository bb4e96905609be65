"""Writing files so that a crash or kill never leaves half of one: every output goes through here.

:func:`write_json` and :func:`write_text` write beside the destination and rename into place (a kill
mid-write leaves the old file or none); :func:`published` does the same for a whole folder. :func:`utc_now`
is the one clock records are stamped with.
"""

from __future__ import annotations

import json
import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path
from typing import Any


def write_text(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically (parents created)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.tmp-{os.getpid()}")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def write_json(path: Path, data: Any) -> None:
    """Write ``data`` as indented JSON (NaN allowed, as Python writes it) to ``path`` atomically."""
    write_text(path, json.dumps(data, indent=2, allow_nan=True) + "\n")


def utc_now() -> str:
    """Return the current UTC time, ISO 8601 to the second: what every record's timestamps use."""
    return datetime.now(UTC).isoformat(timespec="seconds")


@contextmanager
def published(dest: Path) -> Iterator[Path]:
    """Build in a fresh sibling of ``dest`` and, if the block finishes, put it at ``dest`` atomically.

    On any exception (or interrupt) the half-built folder is removed and ``dest`` keeps what it had.
    """
    staging = staging_dir(dest)
    try:
        yield staging
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise
    replace_dir(staging, dest)


def staging_dir(dest: Path) -> Path:
    """Create a fresh, empty sibling of ``dest`` to build into (same filesystem: the rename is atomic)."""
    dest.parent.mkdir(parents=True, exist_ok=True)
    staging = dest.with_name(f".{dest.name}.tmp-{os.getpid()}")
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    return staging


def replace_dir(staging: Path, dest: Path) -> None:
    """Put ``staging`` at ``dest``, replacing any old folder; a crash leaves the old folder or none."""
    old = dest.with_name(f".{dest.name}.old-{os.getpid()}")
    if dest.exists():
        shutil.rmtree(old, ignore_errors=True)
        dest.rename(old)
    staging.rename(dest)
    shutil.rmtree(old, ignore_errors=True)
