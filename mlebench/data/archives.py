"""Zip archives, written reproducibly and extracted safely: shared by the Kaggle fetch and the prepares."""

from __future__ import annotations

import json
import os
import shutil
import zipfile
from pathlib import Path

from mlebench_spec.errors import DataError
from mlebench_spec.hashing import PARALLEL_MIN, ContentHashes, remember_hashes

__all__ = ["COMPRESSED_SUFFIXES", "FETCH_RECORD", "extract_zip", "read_fetch_record", "write_zip"]

_CHUNK = 1 << 20
"""Extraction's read size. Larger chunks made the hashed extraction slower, not faster: each is a fresh
allocation the kernel must fault in, and a few are alive at once while the md5 worker catches up
(measured: docs/performance.md, "Figures behind design choices")."""

FETCH_RECORD = "fetched.json"
"""Written by the pipeline's fetch stage beside a Kaggle archive it keeps unextracted.

See :func:`mlebench.data.prepare.raw_tree`."""


def read_fetch_record(path: Path) -> dict:
    """Read a ``fetched.json``: ``archive`` (file name), ``sha256`` and ``extras`` (file names)."""
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(record["archive"], str) or not isinstance(record["extras"], list):
            raise TypeError("archive must be a name and extras a list")
    except (ValueError, KeyError, TypeError) as exc:
        raise DataError(
            f"{path}: not a fetch record ({type(exc).__name__}: {exc}); re-run the fetch stage"
        ) from None
    return record


COMPRESSED_SUFFIXES = frozenset(
    ".jpg .jpeg .png .gif .webp .mp3 .mp4 .ogg .zip .gz .tgz .bz2 .xz .7z .zst".split()
)
"""Formats that are compressed already: :func:`write_zip` stores them as they are (as ``zip -n`` does),
since deflate would spend ~15 s a GB on them to save a percent or two."""


def write_zip(files: list[Path], root: Path, archive: Path) -> None:
    """Zip ``files`` (stored under their path relative to ``root``) into ``archive``, reproducibly.

    Members are sorted, dated 1980-01-01 and deflated, so the same files always give the same bytes; files in
    a format compressed already (:data:`COMPRESSED_SUFFIXES`) are stored instead, which only changes how
    the archive holds them, never what extracting it gives.
    """
    archive.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as out:
        for path in sorted(files, key=lambda p: p.relative_to(root).as_posix()):
            info = zipfile.ZipInfo(path.relative_to(root).as_posix(), date_time=(1980, 1, 1, 0, 0, 0))
            stored = path.suffix.lower() in COMPRESSED_SUFFIXES
            info.compress_type = zipfile.ZIP_STORED if stored else zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with path.open("rb") as src, out.open(info, "w") as dst:
                shutil.copyfileobj(src, dst, 1 << 20)


def extract_zip(archive: Path, dest: Path, *, progress_label: str = "", hashes: bool = False) -> None:
    """Extract ``archive`` into ``dest``, refusing members that would land outside it.

    With ``progress_label``, a progress bar in bytes is drawn on stderr (on a terminal only). With
    ``hashes``, each file's sha256 and md5 are taken from the bytes as they are written and remembered for
    this process (:func:`mlebench_spec.hashing.remember_hashes`), so a manifest of files published from the
    extraction (hard links keep them valid) does not read them again. Zip members are the exception: a
    prepare nearly always opens a nested zip rather than publishing it (dogs-vs-cats' are never published:
    docs/performance.md), so one is hashed only if published, by the manifest's single read.
    """
    dest.mkdir(parents=True, exist_ok=True)
    root = dest.resolve()
    with zipfile.ZipFile(archive) as zf:
        members = zf.infolist()
        folders: dict[str, str] = {}  # a member's folder as written -> resolved (25,000 images share one)
        for member in members:
            folder, _, name = member.filename.rpartition("/")
            if folder not in folders:
                folders[folder] = os.path.realpath(dest / folder)
            target = os.path.normpath(os.path.join(folders[folder], name))
            if target != str(root) and not target.startswith(f"{root}{os.sep}"):
                raise DataError(f"{archive}: member {member.filename!r} would extract outside {dest}")
        if not progress_label and not hashes:
            zf.extractall(dest)
            return
        from tqdm import tqdm

        total = sum(m.file_size for m in members)
        with tqdm(
            total=total,
            desc=progress_label,
            unit="B",
            unit_scale=True,
            disable=not progress_label or None,
            leave=False,
        ) as bar:
            made: set[Path] = set()
            for member in members:
                if hashes and not member.is_dir() and not member.filename.lower().endswith(".zip"):
                    _extract_hashed(zf, member, dest, bar.update, made)
                else:
                    zf.extract(member, dest)
                    bar.update(member.file_size)


def _extract_hashed(zf: zipfile.ZipFile, member: zipfile.ZipInfo, dest: Path, progress, made: set) -> None:  # noqa: ANN001
    # The member's path as ZipFile.extract maps it on POSIX: empty, "." and ".." parts dropped.
    parts = [part for part in member.filename.split("/") if part not in ("", ".", "..")]
    target = dest.joinpath(*parts)
    if target.parent not in made:
        target.parent.mkdir(parents=True, exist_ok=True)
        made.add(target.parent)
    digests = ContentHashes(parallel=member.file_size >= PARALLEL_MIN)
    with digests, zf.open(member) as src, target.open("wb") as out:  # ZipExtFile checks the CRC at the end
        while chunk := src.read(_CHUNK):
            digests.update(chunk)
            out.write(chunk)
            progress(len(chunk))
    remember_hashes(target, *digests.hexdigests())
