"""Zips written reproducibly: compressed formats stored, the rest deflated, the same bytes every time."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

from mlebench.data.archives import extract_zip, write_zip


def test_compressed_formats_are_stored_and_the_rest_deflated(tmp_path: Path) -> None:
    files = {"a/photo.JPG": os.urandom(5000), "b.csv": b"id,label\n" * 500, "c.png": os.urandom(300)}
    for name, data in files.items():
        (tmp_path / "in" / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / "in" / name).write_bytes(data)
    paths = [tmp_path / "in" / name for name in files]
    write_zip(paths, tmp_path / "in", tmp_path / "one.zip")
    with zipfile.ZipFile(tmp_path / "one.zip") as zf:
        kinds = {info.filename: info.compress_type for info in zf.infolist()}
    assert kinds == {
        "a/photo.JPG": zipfile.ZIP_STORED,
        "b.csv": zipfile.ZIP_DEFLATED,
        "c.png": zipfile.ZIP_STORED,
    }
    write_zip(list(reversed(paths)), tmp_path / "in", tmp_path / "two.zip")
    assert (tmp_path / "one.zip").read_bytes() == (tmp_path / "two.zip").read_bytes()
    extract_zip(tmp_path / "one.zip", tmp_path / "out")
    assert {name: (tmp_path / "out" / name).read_bytes() for name in files} == files
