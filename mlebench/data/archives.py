"""Zip archives, written reproducibly and extracted safely: shared by the Kaggle fetch and the prepares."""

from __future__ import annotations

import shutil
import zipfile
from pathlib import Path

from mlebench.spec.errors import DataError

__all__ = ["extract_zip", "write_zip"]


def write_zip(files: list[Path], root: Path, archive: Path) -> None:
    """Zip ``files`` (stored under their path relative to ``root``) into ``archive``, reproducibly.

    Members are sorted, dated 1980-01-01 and deflated, so the same files always give the same bytes.
    """
    archive.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as out:
        for path in sorted(files, key=lambda p: p.relative_to(root).as_posix()):
            info = zipfile.ZipInfo(path.relative_to(root).as_posix(), date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with path.open("rb") as src, out.open(info, "w") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)


def extract_zip(archive: Path, dest: Path) -> None:
    """Extract ``archive`` into ``dest``, refusing members that would land outside it."""
    dest.mkdir(parents=True, exist_ok=True)
    root = dest.resolve()
    with zipfile.ZipFile(archive) as zf:
        for member in zf.infolist():
            target = (dest / member.filename).resolve()
            if target != root and root not in target.parents:
                raise DataError(f"{archive}: member {member.filename!r} would extract outside {dest}")
        zf.extractall(dest)
