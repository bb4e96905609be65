"""Content hashes taken while bytes stream past: the same digests wherever the hashing runs."""

from __future__ import annotations

import hashlib
import os
import zipfile
from pathlib import Path

import pytest

from mlebench.data.archives import extract_zip
from mlebench_spec.hashing import PARALLEL_MIN, ContentHashes, sha256_md5_file, written_hashes


@pytest.mark.parametrize("parallel", [False, True])
def test_both_placements_of_the_md5_give_the_same_digests(parallel: bool) -> None:
    chunks = [os.urandom(n) for n in (1, 0, 70_001, 1 << 20, 5)]
    whole = b"".join(chunks)
    with ContentHashes(parallel=parallel) as hashes:
        for chunk in chunks:
            hashes.update(chunk)
    assert hashes.hexdigests() == (hashlib.sha256(whole).hexdigest(), hashlib.md5(whole).hexdigest())


def test_the_worker_stops_when_the_caller_fails_half_way() -> None:
    hashes = ContentHashes(parallel=True)
    worker = hashes._done
    with pytest.raises(OSError, match="disk full"), hashes:
        hashes.update(b"x" * 1000)
        raise OSError("disk full")
    assert worker is not None and worker.done()  # not left waiting for chunks that never come


@pytest.mark.parametrize("compression", [zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED])
def test_extracted_files_carry_the_hashes_of_their_bytes(tmp_path: Path, compression: int) -> None:
    big, small = os.urandom(PARALLEL_MIN + 12_345), os.urandom(1000)  # md5 on a worker, and inline
    archive = tmp_path / "download.zip"
    with zipfile.ZipFile(archive, "w", compression=compression) as zf:
        zf.writestr("data/big.bin", big)
        zf.writestr("small.bin", small)
    extract_zip(archive, tmp_path / "out", hashes=True)
    for name, data in (("data/big.bin", big), ("small.bin", small)):
        path = tmp_path / "out" / name
        expected = (hashlib.sha256(data).hexdigest(), hashlib.md5(data).hexdigest())
        assert path.read_bytes() == data
        assert written_hashes(path) == expected
        assert sha256_md5_file(path) == expected


def test_a_nested_zip_is_extracted_but_left_for_the_manifest_to_hash(tmp_path: Path) -> None:
    inner = tmp_path / "train.zip"
    with zipfile.ZipFile(inner, "w") as zf:
        zf.writestr("train/cat.1.jpg", os.urandom(500))
    archive = tmp_path / "download.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.write(inner, "train.zip")
        zf.writestr("sample.csv", "id,label\n1,0.5\n")
    extract_zip(archive, tmp_path / "out", hashes=True)
    assert (tmp_path / "out" / "train.zip").read_bytes() == inner.read_bytes()
    assert written_hashes(tmp_path / "out" / "train.zip") is None  # a prepare opens it; not hashed on the way
    assert written_hashes(tmp_path / "out" / "sample.csv") is not None
    data = inner.read_bytes()
    expected = (hashlib.sha256(data).hexdigest(), hashlib.md5(data).hexdigest())
    assert sha256_md5_file(tmp_path / "out" / "train.zip") == expected  # read once if it is published


def test_a_member_whose_bytes_do_not_match_its_crc_is_refused(tmp_path: Path) -> None:
    data = os.urandom(PARALLEL_MIN + 1)
    archive = tmp_path / "download.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_STORED) as zf:
        zf.writestr("big.bin", data)
    raw = bytearray(archive.read_bytes())
    at = raw.find(data[:64]) + len(data) // 2
    raw[at] ^= 0xFF  # one flipped byte in the middle of the stored member
    archive.write_bytes(bytes(raw))
    with pytest.raises(zipfile.BadZipFile, match="big.bin"):
        extract_zip(archive, tmp_path / "out", hashes=True)
