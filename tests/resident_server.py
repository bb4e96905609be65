"""A folder for the resident stage servers a test starts (:mod:`mlebench.resident`), and their end."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import psutil


@contextmanager
def resident_runtime() -> Iterator[Path]:
    """Yield a short folder to set as ``XDG_RUNTIME_DIR``; kill the servers that use it, then remove it.

    Short, under /tmp: a socket's path has at most 107 bytes.
    """
    runtime = Path(tempfile.mkdtemp(prefix="rs-", dir="/tmp"))
    try:
        yield runtime
    finally:
        for proc in psutil.process_iter(["cmdline"]):
            if any(str(runtime) in part for part in proc.info["cmdline"] or []):
                proc.kill()
        shutil.rmtree(runtime, ignore_errors=True)
