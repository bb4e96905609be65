"""Data stored once and read once.

The fetch keeps a Kaggle archive as it came, prepare extracts it for the call only, the manifest's one pass
gives DVC its md5s, and DVC's linked cache is never written through.
"""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from authoring.kaggle_standin import write_fixture_archive, write_fixture_download
from mlebench.data.archives import FETCH_RECORD
from mlebench.data.dvc_state import dvc_root, record_md5s
from mlebench.data.kaggle_source import fetch_kaggle
from mlebench.data.prepare import prepare_competition
from mlebench_spec.declarations import load_competition
from mlebench_spec.errors import DataError
from mlebench_spec.manifest import write_manifest

CASES = [
    "dogs-vs-cats-redux-kernels-edition",
    "multi-modal-gesture-recognition",
    "spooky-author-identification",
]


class _Downloaded:
    """The Kaggle client's download when the archive is already complete: nothing to fetch."""

    def competition_download_files(self, slug: str, path: str, quiet: bool = True) -> None:
        assert (Path(path) / f"{slug}.zip").is_file()


def _tree(folder: Path) -> dict[str, bytes]:
    return {
        p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


@pytest.mark.parametrize("competition_id", CASES)
def test_a_kept_archive_prepares_to_the_same_bytes_as_an_extracted_one(
    competition_id: str, tmp_path: Path
) -> None:
    comp = load_competition(competition_id)
    comp = comp.model_copy(update={"source": comp.source.model_copy(update={"archive_sha256": None})})
    downloads = tmp_path / "downloads"
    write_fixture_archive(comp, downloads / f"{comp.source.slug}.zip")
    with pytest.warns(UserWarning, match="no archive_sha256"):
        fetch_kaggle(comp, tmp_path / "raw", downloads, api=_Downloaded(), extract=False)
    raw = tmp_path / "raw"
    record = json.loads((raw / FETCH_RECORD).read_text())
    assert sorted(p.name for p in raw.iterdir()) == sorted(
        [FETCH_RECORD, record["archive"], *record["extras"]]
    )
    assert not (downloads / record["archive"]).exists(), "the archive is moved, not copied"
    prepare_competition(comp, raw, tmp_path / "from-archive")
    write_fixture_download(comp, tmp_path / "extracted")
    prepare_competition(comp, tmp_path / "extracted", tmp_path / "from-folder")
    assert _tree(tmp_path / "from-archive") == _tree(tmp_path / "from-folder")
    leftovers = [p.name for p in tmp_path.iterdir() if p.name.startswith(".")]
    assert not leftovers, f"the transient extraction was left behind: {leftovers}"


def test_a_broken_fetch_record_is_named(tmp_path: Path) -> None:
    comp = load_competition("spooky-author-identification")
    (tmp_path / "raw").mkdir()
    (tmp_path / "raw" / FETCH_RECORD).write_text("{}")
    with pytest.raises(DataError, match="fetched.json: not a fetch record .* re-run the fetch stage"):
        prepare_competition(comp, tmp_path / "raw", tmp_path / "prepared")


def test_the_manifest_pass_yields_each_files_md5(tmp_path: Path) -> None:
    for side in ("public", "private"):
        (tmp_path / side / "sub").mkdir(parents=True)
        (tmp_path / side / "sub" / "a.bin").write_bytes(os.urandom(3_000_000))
        (tmp_path / side / "b.csv").write_text("id\n1\n")
    md5s: dict[Path, str] = {}
    write_manifest(tmp_path, md5s)
    files = [p for p in tmp_path.rglob("*") if p.is_file() and p.name != "manifest.json"]
    assert md5s == {p: hashlib.md5(p.read_bytes()).hexdigest() for p in files}


def _git_dvc(root: Path) -> None:
    subprocess.run(["git", "init", "-q"], cwd=root, check=True)
    subprocess.run([sys.executable, "-m", "dvc", "init", "-q"], cwd=root, check=True)
    (root / ".dvc" / "config").write_text('[cache]\n    type = "hardlink,reflink,copy"\n')


def test_dvc_commits_prepared_files_from_the_hashes_prepare_handed_it(tmp_path: Path) -> None:
    """DVC takes the md5s prepare recorded instead of reading the files: a recorded md5 is what it stores."""
    _git_dvc(tmp_path)
    assert dvc_root(tmp_path / "data" / "x") == tmp_path
    out = tmp_path / "data" / "out"
    out.mkdir(parents=True)
    files = {out / f"f{i}": os.urandom(10_000) for i in range(3)}
    for path, data in files.items():
        path.write_bytes(data)
    recorded = {p: hashlib.md5(d).hexdigest() for p, d in files.items()}
    recorded[out / "f0"] = "0" * 32  # not f0's md5: only a hash DVC took from the state could say this
    assert record_md5s(recorded) == 3
    subprocess.run([sys.executable, "-m", "dvc", "add", "-q", "data/out"], cwd=tmp_path, check=True)
    listing = next((tmp_path / ".dvc" / "cache").rglob("*.dir"))
    entries = {e["relpath"]: e["md5"] for e in json.loads(listing.read_text())}
    assert entries == {p.name: md5 for p, md5 in recorded.items()}
    # A file replaced after its md5 was recorded is hashed again (DVC checks inode, mtime and size first).
    assert record_md5s({out / "f1": "1" * 32}) == 1
    (out / "f1").unlink()  # never written in place: it is DVC's read-only cache file, linked
    (out / "f1").write_bytes(b"changed")
    status = subprocess.run(
        [sys.executable, "-m", "dvc", "status", "data/out.dvc"], cwd=tmp_path, capture_output=True, text=True
    )
    assert "modified" in status.stdout


def test_outside_a_dvc_project_nothing_is_recorded(tmp_path: Path) -> None:
    (tmp_path / "f").write_bytes(b"x")
    assert dvc_root(tmp_path) is None
    assert record_md5s({tmp_path / "f": "0" * 32}) == 0


def test_re_preparing_never_writes_into_the_old_linked_outputs(tmp_path: Path) -> None:
    """The old split (read-only links into DVC's cache) is replaced by a rename, its files left untouched."""
    comp = load_competition("spooky-author-identification")
    raw = write_fixture_download(comp, tmp_path / "raw")
    prepared = tmp_path / "prepared"
    prepare_competition(comp, raw, prepared)
    cache = tmp_path / "cache"
    cache.mkdir()
    kept = {}
    for path in sorted(prepared.rglob("*")):
        if path.is_file():  # what DVC's hardlink cache does: the workspace file is the read-only cache file
            linked = cache / f"{len(kept)}"
            os.link(path, linked)
            linked.chmod(0o444)
            kept[linked] = linked.read_bytes()
    prepare_competition(comp, raw, prepared)
    assert all(p.read_bytes() == data for p, data in kept.items())
    assert all(p.stat().st_nlink == 1 for p in kept), "an old output is still linked from the new split"
