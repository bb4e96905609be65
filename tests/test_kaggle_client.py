"""The Kaggle path with the real ``kaggle`` client against the stand-in server: preflight, errors, resume."""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
from kaggle_fixtures import serve_fixture

from authoring.kaggle_standin import StandinKaggle
from mlebench.cli import main
from mlebench.data.fetch import fetch
from mlebench.data.kaggle_source import KaggleAccessError, preflight, record_archive_checksum
from mlebench_spec.declarations import load_competition
from mlebench_spec.errors import DataError

ROOT = Path(__file__).resolve().parents[1]


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


def test_preflight_reports_each_competition_without_stopping(standin: StandinKaggle, tmp_path: Path) -> None:
    standin.archives["spaceship-titanic"] = _zip(tmp_path / "a.zip", {"train.csv": b"x" * 1000})
    standin.accepted.add("spaceship-titanic")
    standin.archives["random-acts-of-pizza"] = _zip(tmp_path / "b.zip", {"train.json": b"y" * 500})
    standin.accepted.discard("random-acts-of-pizza")
    standin.archives.pop("playground-series-s3e18", None)
    ids = ("spaceship-titanic", "random-acts-of-pizza", "playground-series-s3e18")
    comps = [load_competition(c) for c in ids]
    got = {p.competition_id: p for p in preflight(comps)}
    assert [got[c.id].state for c in comps] == ["ready", "rules-not-accepted", "not-found"]
    assert got["spaceship-titanic"].size_bytes == 1000
    assert got["random-acts-of-pizza"].size_bytes == 500
    assert "kaggle.com/c/random-acts-of-pizza/rules" in got["random-acts-of-pizza"].detail


def test_wrong_credentials_are_reported_for_every_competition(
    standin: StandinKaggle, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("KAGGLE_KEY", "not-the-key")
    comps = [load_competition(c) for c in ("spaceship-titanic", "random-acts-of-pizza")]
    assert {p.state for p in preflight(comps)} == {"bad-credentials"}


def test_download_needs_accepted_rules(standin: StandinKaggle, tmp_path: Path) -> None:
    comp = serve_fixture(load_competition("spaceship-titanic"), standin, tmp_path / "served")
    standin.accepted.discard("spaceship-titanic")
    try:
        with pytest.raises(KaggleAccessError, match="accept the competition's rules") as info:
            fetch(comp, tmp_path / "raw", downloads=tmp_path / "downloads")
        assert info.value.state == "rules-not-accepted"
        assert not (tmp_path / "raw").exists()
    finally:
        standin.accepted.add("spaceship-titanic")


def test_a_dropped_download_resumes_from_where_it_stopped(standin: StandinKaggle, tmp_path: Path) -> None:
    payload = np.random.default_rng(0).bytes(3_000_000)  # incompressible: the archive is ~3 MB
    comp = load_competition("spaceship-titanic")
    archive = _zip(tmp_path / "served" / "spaceship-titanic.zip", {"train.csv": payload})
    standin.archives["spaceship-titanic"] = archive
    standin.accepted.add("spaceship-titanic")
    standin.truncate["spaceship-titanic"] = 1_500_000
    standin.requests.clear()
    with pytest.warns(UserWarning, match="no archive_sha256 is recorded"):
        fetch(comp, tmp_path / "raw", downloads=tmp_path / "downloads")
    assert (tmp_path / "raw" / "train.csv").read_bytes() == payload
    ranges = [r for method, path, r in standin.requests if method == "GET" and r]
    assert ranges and all(int(r.removeprefix("bytes=").split("-")[0]) > 0 for r in ranges), standin.requests


def test_a_checksum_mismatch_stops_before_extracting(standin: StandinKaggle, tmp_path: Path) -> None:
    comp = serve_fixture(load_competition("spaceship-titanic"), standin, tmp_path / "served")
    wrong = comp.model_copy(update={"source": comp.source.model_copy(update={"archive_sha256": "0" * 64})})
    with pytest.raises(DataError, match="has sha256 .* but the declaration records 0000"):
        fetch(wrong, tmp_path / "raw", downloads=tmp_path / "downloads")
    assert not (tmp_path / "raw").exists()
    fetch(comp, tmp_path / "raw", downloads=tmp_path / "downloads")  # the kept archive is reused
    assert (tmp_path / "raw" / "train.csv").is_file()


def test_refresh_records_the_archive_checksum_in_the_declaration(tmp_path: Path) -> None:
    folder = tmp_path / "competitions" / "spaceship-titanic"
    folder.mkdir(parents=True)
    original = (ROOT / "competitions" / "spaceship-titanic" / "competition.yaml").read_text()
    (folder / "competition.yaml").write_text(original)
    comp = load_competition("spaceship-titanic")
    record_archive_checksum(comp, "ab" * 32, root=tmp_path)
    record_archive_checksum(comp, "cd" * 32, root=tmp_path)  # replaces, never duplicates
    text = (folder / "competition.yaml").read_text()
    assert text.count("archive_sha256:") == 1
    assert load_competition("spaceship-titanic", tmp_path).source.archive_sha256 == "cd" * 32


def test_cli_prepares_what_it_can_and_names_what_failed(
    standin: StandinKaggle, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    serve_fixture(load_competition("spaceship-titanic"), standin, tmp_path / "served")
    for slug in ("playground-series-s3e18", "ml2021spring-hw2"):
        standin.archives.pop(slug, None)
    with pytest.warns(UserWarning, match="no archive_sha256"):
        code = main(["prepare", "-s", "dev", "--data-dir", str(tmp_path / "data")])
    out, err = capsys.readouterr()
    assert code == 1
    assert "spaceship-titanic: prepared in" in out
    # --data-dir is in MLE-bench v1's layout unless --data-layout ours (issue 41: v1's flags mean what they
    # do in v1)
    assert (tmp_path / "data" / "spaceship-titanic" / "prepared" / "private" / "test.csv").is_file()
    assert not (tmp_path / "data" / "spaceship-titanic" / "raw").exists()  # no --keep-raw
    assert "playground-series-s3e18: FAILED" in err and "no Kaggle competition" in err
    assert "failed:" in err


def _cli(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mlebench.cli", *args], capture_output=True, text=True, env=env, cwd=ROOT
    )


def test_preflight_reads_credentials_from_kaggle_json(standin: StandinKaggle, tmp_path: Path) -> None:
    """A fresh process, as a user runs it: no credentials at all, then a kaggle.json in KAGGLE_CONFIG_DIR."""
    serve_fixture(load_competition("spaceship-titanic"), standin, tmp_path / "served")
    env = {k: v for k, v in os.environ.items() if k not in ("KAGGLE_USERNAME", "KAGGLE_KEY")}
    env |= {"HOME": str(tmp_path / "home"), "KAGGLE_CONFIG_DIR": str(tmp_path / "kaggle")}
    (tmp_path / "home").mkdir()
    (tmp_path / "kaggle").mkdir()
    missing = _cli(["prepare", "--check", "-c", "spaceship-titanic"], env)
    assert missing.returncode == 1, missing.stderr
    assert "no-credentials" in missing.stdout and "kaggle.json" in missing.stdout
    (tmp_path / "kaggle" / "kaggle.json").write_text(
        f'{{"username": "{standin.username}", "key": "{standin.key}"}}'
    )
    ready = _cli(["prepare", "--check", "-c", "spaceship-titanic"], env)
    assert ready.returncode == 0, ready.stdout + ready.stderr
    assert "spaceship-titanic  ready" in ready.stdout and "1 of 1 ready" in ready.stdout


def test_extra_files_come_from_their_own_url_and_are_verified(standin: StandinKaggle, tmp_path: Path) -> None:
    """The freesound test labels live on Zenodo, not Kaggle: fetched beside the archive, pinned by sha256."""
    comp = serve_fixture(load_competition("freesound-audio-tagging-2019"), standin, tmp_path / "served")
    (extra,) = comp.source.extra_files
    fetch(comp, tmp_path / "raw", downloads=tmp_path / "downloads")
    assert (tmp_path / "raw" / extra.name).read_bytes() == (tmp_path / "served" / extra.name).read_bytes()
    assert any(path.endswith(extra.name) for _, path, _ in standin.requests)
    wrong = extra.model_copy(update={"sha256": "0" * 64})
    bad = comp.model_copy(update={"source": comp.source.model_copy(update={"extra_files": [wrong]})})
    with pytest.raises(
        DataError, match="FSDKaggle2019.meta.zip has sha256 .* but the declaration records 0000"
    ):
        fetch(bad, tmp_path / "raw2", downloads=tmp_path / "downloads")


OUR_FETCH_ON_1_6 = r'''
"""Our fetch code on kaggle 1.6 (v1's pin), in a fresh interpreter: preflight, errors, download."""
import json, os, sys
from pathlib import Path

from authoring.kaggle_standin import StandinKaggle
from kaggle_fixtures import serve_fixture
from mlebench.data.fetch import fetch
from mlebench.data.kaggle_source import KaggleAccessError, preflight
from mlebench_spec.declarations import load_competition

tmp = Path(sys.argv[1])
out = {}
with StandinKaggle({}) as server:
    os.environ.update(server.client_env())
    comp = serve_fixture(load_competition("spaceship-titanic"), server, tmp / "served")
    import kaggle

    out["kaggle"] = kaggle.__file__
    server.accepted.clear()
    out["preflight"] = [(p.state, p.size_bytes) for p in preflight([comp])]
    try:
        fetch(comp, tmp / "raw", downloads=tmp / "dl")
    except KaggleAccessError as exc:
        out["refused"] = [exc.state, str(exc)]
    server.accepted.add("spaceship-titanic")
    out["ready"] = [p.state for p in preflight([comp])]
    digest = fetch(comp, tmp / "raw", downloads=tmp / "dl")
    names = sorted(p.name for p in (tmp / "raw").iterdir())
    out["fetched"] = [digest.sha256 == comp.source.archive_sha256, names]
    unknown = comp.model_copy(update={"source": comp.source.model_copy(update={"slug": "nope"})})
    out["unknown"] = [p.state for p in preflight([unknown])]
print("RESULT " + json.dumps(out))
'''


def test_our_fetch_code_on_the_kaggle_client_v1_pins(kaggle_16: Path, tmp_path: Path) -> None:
    """The REST client of kaggle 1.6: preflight reads its camelCase answers; its ApiException is handled."""
    import json

    tests = Path(__file__).resolve().parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(kaggle_16), str(ROOT), str(tests)])}
    env["KAGGLE_CONFIG_DIR"] = str(tmp_path / "kaggle")
    done = subprocess.run(
        [sys.executable, "-c", OUR_FETCH_ON_1_6, str(tmp_path)],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert done.returncode == 0 and lines, done.stderr[-4000:]
    result = json.loads(lines[-1].removeprefix("RESULT "))
    assert result["kaggle"].startswith(str(kaggle_16))
    [(state, size)] = result["preflight"]
    assert state == "rules-not-accepted" and size > 0
    assert (
        result["refused"][0] == "rules-not-accepted" and "/c/spaceship-titanic/rules" in result["refused"][1]
    )
    assert result["ready"] == ["ready"] and result["unknown"] == ["not-found"]
    assert result["fetched"] == [True, ["train.csv"]]
