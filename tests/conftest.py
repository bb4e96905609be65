"""Session fixtures: embedded competitions fetched and prepared once per test session."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from embedded_fixtures import COMPETITIONS, Prepared

from authoring.kaggle_standin import StandinKaggle
from mlebench.data.fetch import fetch
from mlebench.data.prepare import prepare_competition
from mlebench_spec.declarations import parse_declaration

# Each stage a test starts runs in its own process: a resident stage server (mlebench.resident) per temporary
# checkout would outlive its test by minutes. tests/test_resident.py and tests/test_pipeline.py turn it on.
os.environ.setdefault("MLEBENCH_RESIDENT_STAGES", "0")


@pytest.fixture(scope="session")
def raw_root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("raw")


@pytest.fixture(scope="session")
def prepare_once(raw_root: Path, tmp_path_factory: pytest.TempPathFactory) -> Callable[[str], Prepared]:
    """Fetch and prepare a competition the first time it is asked for; later calls reuse the result."""
    cache: dict[str, Prepared] = {}

    def get(competition_id: str) -> Prepared:
        if competition_id not in cache:
            comp = parse_declaration(COMPETITIONS / competition_id / "competition.yaml")
            raw = raw_root / comp.id
            fetch(comp, raw)
            out = tmp_path_factory.mktemp("prepared") / comp.id
            prepare_competition(comp, raw, out, folder=COMPETITIONS / comp.id)
            cache[competition_id] = Prepared(comp, raw, out)
        return cache[competition_id]

    return get


@pytest.fixture(scope="session")
def standin() -> Iterator[StandinKaggle]:
    """Run a stand-in Kaggle server for the session and point the real client's environment at it."""
    with StandinKaggle({}) as server, pytest.MonkeyPatch.context() as patch:
        for name, value in server.client_env().items():
            patch.setenv(name, value)
        yield server


@pytest.fixture(scope="session")
def kaggle_16(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Install the kaggle client MLE-bench v1 pins (``kaggle>=1.6,<1.7``) once, into pytest's cache folder.

    Its own dependencies are the 2.x client's (requests, urllib3, tqdm, ...), installed already; only the
    package itself (about 1 MB) is fetched, with pip, for the interpreter run with it on its path.
    """
    cache = getattr(request.config, "cache", None)  # absent under -p no:cacheprovider
    folder = cache.mkdir("kaggle-1.6") if cache is not None else tmp_path_factory.mktemp("kaggle-1.6")
    if not (folder / "kaggle" / "rest.py").is_file():
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "install",
                "-q",
                "--no-deps",
                "--target",
                str(folder),
                "kaggle>=1.6,<1.7",
            ],
            capture_output=True,
            text=True,
        )
        if done.returncode != 0:
            if os.environ.get("CI") == "true":
                pytest.fail(f"pip could not install kaggle 1.6: {done.stderr[-2000:]}")
            pytest.skip(f"pip could not install kaggle 1.6 (offline?): {done.stderr[-300:]}")
    return folder
