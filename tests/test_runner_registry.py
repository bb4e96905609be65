"""A new runner is one file plus one registry line: the test-only echo runner runs and grades a cell."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mlebench.execution import runners
from mlebench.execution.grading import grade_cell
from mlebench.execution.runners import run_cell
from mlebench.planning.plan import compose, resolve
from mlebench_spec.cell import Cell
from mlebench_spec.errors import ConfigError
from mlebench_spec.params import AgentConfig, DockerSettings, Hardware

ROOT = Path(__file__).resolve().parents[1]
HW = Hardware(name="test", cpus=1, memory="1g", shm_size="64m", pids=64, gpus=0, time_limit_secs=30)


@pytest.fixture
def echo(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(runners.RUNNERS, "echo", "echo_runner:EchoRunner")  # the one registry line


def test_a_registered_runner_runs_and_grades_a_cell(echo, prepare_once, tmp_path: Path) -> None:
    prepared = prepare_once("titanic-lite")
    agent = AgentConfig(path="agents/dummy", command=["python", "main.py"])
    run = tmp_path / "run"
    cell = Cell("titanic-lite", "dummy", 0, ROOT, prepared.public, prepared.private, run, agent, HW)
    record = run_cell(cell, "echo", DockerSettings())
    assert record.runner == "echo" and json.loads((run / "run.json").read_text())["runner"] == "echo"
    graded = grade_cell(cell).to_json()
    assert graded["runner"] == "echo" and graded["lineage"]["grader_runner"] == "host"
    assert graded["status"] == "ok" and graded["valid_submission"] and not graded["any_medal"]
    assert graded["lineage"]["config_sha256"] == record.config_sha256


def test_the_plan_accepts_a_registered_runner_and_names_the_known_ones(echo) -> None:
    plan = resolve(compose(["runner=echo", "competition_set=custom", "competition_set.ids=[titanic-lite]"]))
    assert plan.runner == "echo"
    with pytest.raises(ConfigError, match="known: auto, docker, local, podman, sandbox, echo"):
        resolve(compose(["runner=nope", "competition_set=custom", "competition_set.ids=[titanic-lite]"]))
