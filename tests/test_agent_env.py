"""The sandboxed agent's own Python refuses a competition's data, by package and by content (issue 48).

The environments themselves are built and used by the sandbox tests (tests/docker); here, what a built layer
is checked for, on small folders laid out as a venv.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from mlebench.data.fetch import package_folder
from mlebench.execution.agent_env import _refuse_data, data_files, find_data
from mlebench_spec.declarations import PackageSource, load_competition
from mlebench_spec.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]


def _venv(tmp_path: Path) -> Path:
    site = tmp_path / "venv" / "lib" / "python3.11" / "site-packages"
    site.mkdir(parents=True)
    return tmp_path / "venv"


def test_every_embedded_competitions_source_files_are_derived_from_the_declarations() -> None:
    files = data_files(ROOT)
    embedded = {f.competition_id for f in files}
    assert "titanic-lite" in embedded and all(f.sha256 for f in files)
    for cid in embedded:
        assert isinstance(load_competition(cid, ROOT).source, PackageSource)


def test_a_layer_holding_a_source_distribution_is_refused(tmp_path: Path) -> None:
    venv = _venv(tmp_path)
    item = data_files(ROOT)[0]
    (venv / "lib" / "python3.11" / "site-packages" / f"{item.distribution}-1.0.dist-info").mkdir()
    with pytest.raises(ConfigError, match=f"installs {item.distribution}, the package competition"):
        _refuse_data(venv, tmp_path / "requirements.txt", ROOT)


def test_a_source_file_under_any_name_is_found_and_refused(tmp_path: Path) -> None:
    venv = _venv(tmp_path)
    titanic = next(f for f in data_files(ROOT) if f.competition_id == "titanic-lite")
    source = load_competition("titanic-lite", ROOT).source
    hidden = venv / "lib" / "python3.11" / "site-packages" / "innocent" / "weights.bin"
    hidden.parent.mkdir()
    shutil.copyfile(package_folder(source) / titanic.path, hidden)  # renamed, in another package
    assert [p for p, _ in find_data(venv, data_files(ROOT))] == [hidden]
    with pytest.raises(ConfigError, match="whose bytes are titanic-lite's source file"):
        _refuse_data(venv, tmp_path / "requirements.txt", ROOT)
    hidden.unlink()
    _refuse_data(venv, tmp_path / "requirements.txt", ROOT)  # nothing of any competition's: accepted
