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
import os
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from cells import share
from container_fixtures import (  # noqa: F401 - fixtures
    ENGINES,
    ISOLATING,
    ROOT,
    docker_client,
    env_ref,
    podman_service,
    runner,
    settings,
    titanic,
    under,
)

from mlebench.execution.grading import grade_cell
from mlebench.execution.reproduce import DEFAULT, reproduce_cell
from mlebench.execution.runners import get_runner, run_cell
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


def _answers(private: Path) -> dict[str, str]:
    """Return the answers (``PassengerId`` -> ``Survived``) from the private side: what a stash holds."""
    import csv

    (path,) = [p for p in sorted(private.glob("*.csv")) if "PassengerId" in p.read_text().splitlines()[0]]
    with path.open(newline="") as fh:
        return {row["PassengerId"]: row["Survived"] for row in csv.DictReader(fh)}


@under(*ISOLATING)
def test_stashed_answers_win_no_medal_and_fail_to_reproduce_from_source(
    runner, titanic, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    """Answers kept beside the code (issue 48, item 3), under docker, podman and sandbox.

    The stash agent writes answers it was handed (as if fetched once under egress: a gold submission) and
    keeps them in code/ as a CSV under an innocent name, a pickled lookup table and a numpy array with a
    renamed extension; its one script copies them. Each kept file is flagged by the integrity check that
    reads data files (stashed_answers), the re-run gets source only and fails naming what was left out,
    and neither headline (all cells, reproduced cells) counts the medal; the reasons are in the report's
    process section.
    """
    from mlebench.integrity.verdict import check_cell
    from mlebench.reporting.reproduction import counted_reproduced, process_section
    from mlebench.reporting.verdicts import counted
    from mlebench_spec.params import DockerSettings, IntegritySettings

    if runner in ENGINES:
        request.getfixturevalue("env_ref")
        docker = request.getfixturevalue("settings")
    else:
        docker = DockerSettings()
        problem = get_runner(runner, docker).problem()
        if problem:
            if os.environ.get("CI") == "true":
                pytest.fail(f"CI=true but the {runner} runner cannot run here: {problem}", pytrace=False)
            pytest.skip(f"the {runner} runner cannot run here: {problem}")
    agent = AgentConfig(
        path="tests/docker/repro_agent",
        command=["python", "agent.py"],
        kwargs={"mode": "stash", "answers": _answers(titanic.private)},
    )
    root = tmp_path / "checkout"
    root.mkdir()
    (root / "competitions").symlink_to(ROOT / "competitions")
    share(tmp_path)  # the Podman service's user opens the runs' folders
    cell = Cell(titanic.id, "stash", 0, ROOT, titanic.public, titanic.private, tmp_path / "run", agent, HW)
    run = run_cell(cell, runner, docker)
    if run.status == "infra_error":  # the engine's failure, not the agent's (seen once under Podman in CI)
        print(f"infra_error, run again once: {run.reason}")
        run = run_cell(cell, runner, docker)
    assert run.status == "ok" and run.submission_exists, (run.status, run.reason, run)
    graded = grade_cell(cell, mode="v1").to_json()
    (tmp_path / "grade.json").write_text(json.dumps(graded), encoding="utf-8")
    assert graded["gold_medal"] and graded["score"] == 1.0  # the stash is gold
    record = reproduce_cell(
        cell,
        ReproduceSettings(enabled=True),
        docker,
        grade_path=tmp_path / "grade.json",
        out=tmp_path / "again",
    )
    kept = {"code/notes.txt", "code/model.pkl", "code/weights.bin"}
    assert (record.verdict, record.status, record.runner) == ("failed", "agent_error", runner), record.reason
    assert {e["path"] for e in record.inputs["left_out"]} == kept
    assert [e["path"] for e in record.inputs["given"]] == ["code/solve.py"]
    assert "left out code/model.pkl (a pickle)" in record.reason and "train again" in record.reason
    assert {m["path"] for m in record.stash_matches} == kept
    integrity = check_cell(replace(cell, root=root), agent, IntegritySettings(), reproduction=record)
    checks = {c["check"]: c for c in integrity["checks"]}
    assert integrity["verdict"] == "flagged" and checks["stashed_answers"]["flagged"]
    assert {e.split(":")[0] for e in checks["stashed_answers"]["evidence"]} == kept
    assert checks["reproduction"]["flagged"]  # the stash, whatever reproduce.flag says
    headline = counted(graded, integrity)
    assert headline is None or not headline["any_medal"]  # podman cells are unisolated: not counted at all
    assert not counted_reproduced(graded, record.to_json())["any_medal"]
    (row,) = process_section({("stash", titanic.id, 0): record.to_json()}, ["stash"])["cells"]
    assert row["verdict"] == "failed" and set(row["stashed"]) == kept and "code/model.pkl" in row["reason"]
    assert "left out code/model.pkl (a pickle)" in row["note"] and "answers kept in" in row["note"]
