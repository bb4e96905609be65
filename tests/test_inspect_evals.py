"""A real MLE-bench v1 client on this package: inspect_evals' ``mle_bench`` task (PyPI ``inspect-evals``).

Its task construction and its setup solver (``registry.set_data_dir``, ``is_dataset_prepared``,
``download_and_prepare_dataset``) prepare an embedded competition and a Kaggle one (through the Kaggle
stand-in) in v1's layout. Its scorer runs its grading script (``registry.get_competition``, ``grade_csv``,
``json.dumps(report.to_dict())``) in a stand-in sandbox: the same command run here, with the container's
paths mapped onto the volumes of the compose file inspect_evals itself writes. Its verdicts equal those of
``mlebench grade-sample`` on the same files. ``mle_bench()`` with no argument at all, its Kaggle rules check
included, runs in a fresh interpreter on kaggle 2.x and on the 1.6 client v1 pins. inspect-evals is part of
the ``test`` extra; with ``CI=true`` a missing install fails these tests instead of skipping them.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml
from kaggle_fixtures import serve_fixture

from mlebench.cli import main
from mlebench.data.selfcheck import gold_submission
from mlebench_spec.declarations import all_competition_ids, load_competition

if os.environ.get("CI") != "true":
    pytest.importorskip("inspect_evals")
import importlib  # noqa: E402

from inspect_ai.scorer import Target  # noqa: E402
from inspect_ai.solver import TaskState  # noqa: E402
from inspect_ai.util import ExecResult  # noqa: E402

ie = importlib.import_module(
    "inspect_evals.mle_bench.mle_bench"
)  # the package re-exports a function as that name

IDS = ["titanic-lite", "spaceship-titanic"]  # an embedded competition, a Kaggle one


class MountedSandbox:
    """Run what the scorer execs in the sandbox here, the container's paths mapped onto its volumes."""

    def __init__(self, compose_file: Path, root: Path) -> None:
        self.root = root
        service = yaml.safe_load(compose_file.read_text())["services"]["default"]
        for volume in service["volumes"]:
            host, inside, *_ = volume.split(":")
            where = root / inside.lstrip("/")
            where.parent.mkdir(parents=True, exist_ok=True)
            where.symlink_to(host, target_is_directory=True)
        (root / "home" / "submission").mkdir(parents=True)

    def submit(self, submission: Path) -> None:
        """Put ``submission`` where the agent leaves it, /home/submission/submission.csv."""
        (self.root / "home" / "submission" / "submission.csv").write_bytes(submission.read_bytes())

    async def exec(self, cmd: list[str], **_: Any) -> ExecResult[str]:
        """Run the scorer's ``conda run -n mleb python -c SCRIPT`` with this interpreter, paths mapped."""
        assert cmd[:5] == ["/opt/conda/bin/conda", "run", "-n", "mleb", "python"], cmd
        script = re.sub(r'Path\("/([^"]*)"\)', lambda m: f'Path("{self.root}/{m.group(1)}")', cmd[-1])
        done = subprocess.run([sys.executable, *cmd[5:-1], script], capture_output=True, text=True)
        return ExecResult(done.returncode == 0, done.returncode, done.stdout, done.stderr)


@pytest.fixture
def task_and_data(standin, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN001, ANN201
    """Build inspect_evals' mle_bench task over both competitions and run its setup (preparation)."""
    monkeypatch.setattr(ie, "COMPOSE_FILES_DIR", tmp_path / "compose")
    serve_fixture(load_competition("spaceship-titanic"), standin, tmp_path / "served")
    split = tmp_path / "split.txt"
    split.write_text("\n".join(IDS) + "\n")
    data_dir = tmp_path / "data"
    task = ie.mle_bench(split=str(split), data_dir=str(data_dir), skip_tos_check=True, sandbox_config=_none)
    assert [s.id for s in task.dataset] == IDS
    setup = task.setup if isinstance(task.setup, list) else [task.setup]
    with pytest.warns(UserWarning, match="no archive_sha256"):  # the fixture archive is not the real one
        for sample in task.dataset:
            state = TaskState("mockllm/model", sample.id, 1, sample.input, [])
            asyncio.run(setup[0](state, _no_generate))
    return task, data_dir


def _none(*_: Any) -> None:
    """No sandbox spec: the tests never start a container (the scorer's sandbox is stood in for)."""
    return None


async def _no_generate(*_: Any, **__: Any) -> None:
    raise AssertionError("the setup solver must not call the model")


def test_every_competition_in_inspect_evals_splits_is_in_the_registry() -> None:
    from mlebench.registry import registry

    known = set(registry.list_competition_ids())
    splits = Path(ie.FILE_DIR) / "splits"
    for split in ("all.txt", "low.txt", "medium.txt", "high.txt", "dev.txt", "spaceship-titanic.txt"):
        ids = [line for line in (splits / split).read_text().splitlines() if line.strip()]
        assert ids and not set(ids) - known, (split, sorted(set(ids) - known))


def test_the_setup_prepares_in_v1s_layout(task_and_data) -> None:  # noqa: ANN001
    from mlebench.data import is_dataset_prepared
    from mlebench.registry import registry

    _, data_dir = task_and_data
    for cid in IDS:
        prepared = data_dir / cid / "prepared"
        assert (prepared / "public" / "description.md").is_file() and any((prepared / "private").iterdir())
        assert is_dataset_prepared(registry.set_data_dir(data_dir).get_competition(cid))


def test_its_scorer_grades_as_grade_sample_does(
    task_and_data,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],  # noqa: ANN001
) -> None:
    task, data_dir = task_and_data
    scorer = task.scorer[0] if isinstance(task.scorer, list) else task.scorer
    seen = set()
    for cid in IDS:
        compose = Path(ie.get_compose_file(cid, data_dir, "mlebench-inspect-env", 1, None, check_image=False))
        box = MountedSandbox(compose, tmp_path / "container" / cid)
        comp = load_competition(cid)
        prepared = data_dir / cid / "prepared"
        scratch = tmp_path / "gold" / cid
        scratch.mkdir(parents=True)
        gold = gold_submission(comp, prepared / "public", prepared / "private", scratch)
        for submission in (gold, prepared / "public" / "sample_submission.csv"):
            box.submit(submission)
            state = TaskState("mockllm/model", cid, 1, "", [])
            with pytest.MonkeyPatch.context() as patch:
                patch.setattr(ie, "sandbox", lambda *_a, _box=box, **_k: _box)
                score = asyncio.run(scorer(state, Target("")))
            report = json.loads(score.explanation)  # the whole stdout is the report
            assert report["competition_id"] == cid
            assert report["submission_path"].endswith("/home/submission/submission.csv")
            assert main(["grade-sample", str(submission), cid, "--data-dir", str(data_dir)]) == 0
            cli = json.loads(capsys.readouterr().out)
            wanted = {k: cli[k] for k in ("valid_submission", "above_median", "any_medal")}
            assert score.value == wanted, (cid, submission.name, score.explanation)
            assert report["score"] == cli["score"]
            seen.add((cid, wanted["any_medal"]))
    assert seen == {(cid, medal) for cid in IDS for medal in (True, False)}  # gold wins one, the sample none


def test_every_declared_competition_can_be_constructed_as_a_task(tmp_path: Path) -> None:
    split = tmp_path / "split.txt"
    split.write_text("\n".join(all_competition_ids()) + "\n")
    task = ie.mle_bench(
        split=str(split), data_dir=str(tmp_path / "d"), skip_tos_check=True, sandbox_config=_none
    )
    assert len(task.dataset) == len(all_competition_ids()) - len(ie.INVALID_IDS)


DEFAULT_TASK = r'''
"""Run in a fresh interpreter: inspect_evals' mle_bench() with every default, its rules check included."""
import asyncio, importlib, json, os, sys, zipfile
from pathlib import Path

from authoring.kaggle_standin import StandinKaggle
from kaggle_fixtures import serve_fixture
from mlebench_spec.declarations import load_competition

out = {}
with StandinKaggle({}) as server:
    os.environ.update(server.client_env())
    served = serve_fixture(load_competition("spaceship-titanic"), server, Path(sys.argv[1]))
    archive = server.archives["spaceship-titanic"]
    with zipfile.ZipFile(archive, "a") as zf:  # Kaggle's archive holds it; the rules check probes it
        zf.writestr("sample_submission.csv", "PassengerId,Transported\n0013_01,False\n")
    server.accepted.clear()
    ie = importlib.import_module("inspect_evals.mle_bench.mle_bench")
    try:
        ie.mle_bench()
        out["refused"] = None
    except RuntimeError as exc:
        out["refused"] = str(exc)
    server.accepted.add("spaceship-titanic")
    task = ie.mle_bench()
    setup = task.setup if isinstance(task.setup, list) else [task.setup]
    from inspect_ai.solver import TaskState

    async def no_model(*_, **__):
        raise AssertionError("the setup must not call the model")

    for sample in task.dataset:
        asyncio.run(setup[0](TaskState("mockllm/model", sample.id, 1, sample.input, []), no_model))
    import kaggle.rest
    from mlebench.data import get_checksum, is_dataset_prepared
    from mlebench.registry import registry
    from mlebench.utils import load_yaml

    comp = registry.set_data_dir(ie.DEFAULT_DATA_DIR).get_competition("spaceship-titanic")
    out.update(
        ids=[s.id for s in task.dataset],
        compose=[Path(s.sandbox.config).is_file() for s in task.dataset],
        prepared=is_dataset_prepared(comp),
        data_dir=str(comp.public_dir),
        zip_matches=load_yaml(comp.checksums)["zip"] == get_checksum(archive),
        kaggle=importlib.import_module("kaggle").__file__,
        api_exception=kaggle.rest.ApiException.__module__,
        requests=[f"{m} {p}" for m, p, _ in server.requests],
    )
print("RESULT " + json.dumps(out))
'''


def _docker_reachable() -> None:
    """mle_bench()'s default sandbox config asks the Docker engine whether its image exists."""
    import docker

    try:
        docker.from_env().ping()
    except Exception as exc:  # noqa: BLE001 - any failure means no engine to ask
        if os.environ.get("CI") == "true":
            pytest.fail(f"no Docker engine for mle_bench()'s image check: {exc}")
        pytest.skip(f"no Docker engine for mle_bench()'s image check: {exc}")


@pytest.mark.parametrize("client", ["2.x", "1.6"])
def test_the_default_task_with_its_rules_check_on_v1s_kaggle_client_and_the_current_one(
    client: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    """``mle_bench()`` with no argument: the rules check refuses unaccepted rules, then the task prepares.

    The check is inspect_evals' own (``tos.py``: ``authenticate_kaggle_api``, ``get_config_value``, a probe
    download, ``kaggle.rest.ApiException``), against the stand-in in the client's own protocol: the
    RPC calls of kaggle 2.x (whose errors reach it as ``kaggle.rest.ApiException`` through
    :mod:`mlebench.data.kaggle_v1`) and the REST calls of 1.6 (its own ``kaggle.rest``).
    """
    _docker_reachable()
    tests = Path(__file__).resolve().parent
    paths = [str(tests.parent), str(tests)]
    if client == "1.6":
        paths.insert(0, str(request.getfixturevalue("kaggle_16")))
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(paths),
        "INSPECT_EVALS_CACHE_DIR": str(tmp_path / "cache"),
        "KAGGLE_CONFIG_DIR": str(tmp_path / "kaggle"),
        "HOME": str(tmp_path / "home"),
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    done = subprocess.run(
        [sys.executable, "-c", DEFAULT_TASK, str(tmp_path / "served")],
        capture_output=True,
        text=True,
        env=env,
        cwd=tmp_path,
        timeout=300,
    )
    lines = [line for line in done.stdout.splitlines() if line.startswith("RESULT ")]
    assert done.returncode == 0 and lines, done.stderr[-4000:]
    result = json.loads(lines[-1].removeprefix("RESULT "))
    assert "https://www.kaggle.com/c/spaceship-titanic/rules" in (result["refused"] or ""), result
    assert result["ids"] == ["spaceship-titanic"] and result["compose"] == [True]
    assert result["prepared"] and result["zip_matches"]
    assert result["data_dir"] == str(
        tmp_path / "cache" / "mle_bench" / "data" / "spaceship-titanic" / "prepared" / "public"
    )
    if client == "1.6":
        assert result["kaggle"].startswith(paths[0]) and result["api_exception"] == "kaggle.rest"
        probe = "GET /api/v1/competitions/data/download/spaceship-titanic/sample_submission.csv"
    else:
        assert result["api_exception"] == "mlebench.data.kaggle_v1"
        probe = "POST /api/v1/competitions.CompetitionApiService/DownloadDataFile"
    assert result["requests"].count(probe) == 2  # refused once, then accepted
    assert "GET /download/spaceship-titanic/sample_submission.csv" in result["requests"]
