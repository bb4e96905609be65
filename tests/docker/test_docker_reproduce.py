"""The reproduce stage under Docker (issue 42): three agents' kept code re-run in fresh containers and graded.

The reproduce test agent (tests/docker/repro_agent) leaves code three ways: ``honest`` (its code wrote the
submission and says how to re-run it), ``typed`` (the submission was typed in; its one script writes
something else) and ``silent`` (no declaration). Each cell runs, is graded in the grader container, and is
reproduced: a fresh container of the same agent image, no network, a shorter time limit, the kept code in
``/home/code``; the re-run is graded the same way. Expected: reproduced, differs (caught: the integrity check
flags it) and not_declared.
"""

# ruff: noqa: F811 - fixtures are imported from container_fixtures and then named as test parameters
from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from container_fixtures import ROOT, docker_client, env_ref, runner, settings, titanic  # noqa: F401 - fixtures

from mlebench.execution.grading import grade_cell
from mlebench.execution.reproduce import DEFAULT, reproduce_cell
from mlebench.execution.runners import run_cell
from mlebench.integrity.verdict import reproduction_check
from mlebench_spec.cell import Cell
from mlebench_spec.params import AgentConfig, Hardware, ReproduceSettings

pytestmark = pytest.mark.docker

HW = Hardware(name="test", cpus=1, memory="512m", shm_size="64m", pids=64, gpus=0, time_limit_secs=60)


def _json(path: Path) -> dict[str, Any]:
    return json.loads(path.read_text(encoding="utf-8"))


@pytest.mark.parametrize(
    ("mode", "verdict", "declared_by"),
    [
        ("honest", "reproduced", "code/reproduce.sh"),
        ("typed", "differs", DEFAULT),
        ("silent", "not_declared", ""),
    ],
)
def test_reproduced_differs_caught_and_not_declared_in_fresh_containers(
    env_ref, settings, titanic, tmp_path: Path, mode: str, verdict: str, declared_by: str
) -> None:
    agent = AgentConfig(
        path="tests/docker/repro_agent", command=["python", "agent.py"], kwargs={"mode": mode}
    )
    cell = Cell(titanic.id, "repro", 0, ROOT, titanic.public, titanic.private, tmp_path / "run", agent, HW)
    run = run_cell(cell, "docker", settings)
    assert run.status == "ok" and run.submission_exists, run
    grade_cell(cell, mode="v1").write(tmp_path / "grade.json")
    original = _json(tmp_path / "grade.json")
    record = reproduce_cell(
        cell,
        ReproduceSettings(enabled=True),
        settings,
        grade_path=tmp_path / "grade.json",
        out=tmp_path / "again",
    )
    assert (record.verdict, record.declared_by, record.runner) == (verdict, declared_by, "docker")
    assert record.original_score == original["score"] is not None
    assert record.lineage["original"]["agent_image_id"] == original["lineage"]["agent_image_id"]
    if verdict == "not_declared":
        assert not (tmp_path / "again" / "run").exists() and not reproduction_check(record).flagged
        return
    again_run = _json(tmp_path / "again" / "run" / "run.json")
    again = _json(tmp_path / "again" / "grade.json")
    assert again_run["runner"] == "docker" and again_run["network"] == "none"
    assert again_run["images"]["agent"]["id"] == run.images["agent"]["id"]  # the same image
    assert again_run["hardware"]["time_limit_secs"] == 30 and again_run["hardware"]["cpus"] == HW.cpus
    assert again["lineage"]["grader_runner"] == "docker" and again["isolation"] == "isolated"
    assert record.status == again["status"] == "ok" and record.score == again["score"]
    assert record.seconds == again_run["agent_seconds"] < 30
    assert record.lineage["reproduction"]["agent_image_id"] == original["lineage"]["agent_image_id"]
    if verdict == "reproduced":
        assert record.delta == 0.0
        assert again["lineage"]["submission_sha256"] == original["lineage"]["submission_sha256"]
    else:
        assert abs(record.delta or 0.0) > 0.1
        assert reproduction_check(record).flagged  # the integrity verdict catches the typed-in submission
