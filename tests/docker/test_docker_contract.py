"""The agent contract inside the container: folders, environment, kwargs, instructions, limits, `validate`."""

# ruff: noqa: F811 - fixtures are imported from container_fixtures and then named as test parameters

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cells import environment as container_env
from cells import run_local
from container_fixtures import (  # noqa: F401 - fixtures
    ISOLATING,
    docker_client,
    env_ref,
    hostile,
    hw,
    podman_service,
    runner,
    settings,
    titanic,
    under,
)

from mlebench.execution.contract import limits_missing
from mlebench_spec.params import AgentConfig

pytestmark = pytest.mark.docker


@under(*ISOLATING)
def test_configured_kwargs_and_contract_variables_reach_the_agent(hostile, titanic, hw) -> None:
    run = hostile("env", model="gpt-x", temperature=0.5, nested={"a": [1, 2]})
    env = run.result["env"]
    assert json.loads(env["AGENT_KWARGS"]) == {
        "attack": "env",
        "model": "gpt-x",
        "temperature": 0.5,
        "nested": {"a": [1, 2]},
    }
    assert env["DATA_DIR"] == "/home/data" and env["SUBMISSION_DIR"] == "/home/submission"
    assert env["CODE_DIR"] == "/home/code" and env["LOGS_DIR"] == "/home/logs"
    assert env["INSTRUCTIONS_FILE"] == "/home/instructions.txt"
    assert env["COMPETITION_ID"] == "titanic-lite" and env["SEED"] == "0"
    assert env["TIME_LIMIT_SECS"] == str(hw.time_limit_secs) and env["HARDWARE_MEMORY"] == hw.memory
    assert env["HARDWARE_CPUS"] == "1" and env["HARDWARE_GPUS"] == "0" and env["HARDWARE_NAME"] == hw.name
    assert run.result["data"] == sorted(p.name for p in titanic.public.iterdir())
    assert "description.md" in run.result["data"]
    assert "validate" in run.result["instructions"] and "sample_submission.csv" in run.result["instructions"]
    assert run.record.status == "ok" and run.record.submission_exists
    assert (run.out / "code" / "probe.py").is_file()


def test_container_sets_every_variable_the_local_runner_sets(tmp_path: Path, titanic, hw) -> None:
    """The env contract cannot drift: a local probe lists its variables, the container env has them all."""
    agent_dir = tmp_path / "agents" / "probe"
    agent_dir.mkdir(parents=True)
    (agent_dir / "main.py").write_text("import os, json\nprint(json.dumps(sorted(os.environ)))\n")
    agent = AgentConfig(path="agents/probe", command=["python", "main.py"], kwargs={"k": 1})
    run_local("titanic-lite", "probe", agent, hw, 0, titanic.public, tmp_path / "out", tmp_path)
    local_keys = set(json.loads((tmp_path / "out" / "agent_output.log").read_text()))
    container_keys = set(container_env("titanic-lite", agent, hw, 0)) | {"PATH"}  # PATH comes from the image
    assert local_keys <= container_keys, local_keys - container_keys


@under(*ISOLATING)
def test_hardware_limits_are_enforced_inside(hostile, hw) -> None:
    profile = hw.model_copy(update={"memory": "300m", "pids": 50, "cpus": 0.5, "shm_size": "32m"})
    run = hostile("limits", hardware=profile)
    result, record = run.result, run.record
    if limits_missing(record.limits_enforced):  # no cgroup to hold them here: said, not hidden
        assert all(limit in record.unisolated() for limit in limits_missing(record.limits_enforced))
        assert result["shm_bytes"] == 32 * 1024**2
        pytest.xfail(f"{record.runner}: {record.unisolated()}")
    assert int(result["memory"]) == 300 * 1024**2
    assert result["memsw"] in (str(300 * 1024**2), "0", "absent")  # no swap beyond the memory limit
    assert result["pids"] == "50"
    if result["cpu_period"] != "absent" and " " not in result["cpu_quota"]:
        assert int(result["cpu_quota"]) / int(result["cpu_period"]) == pytest.approx(0.5)
    assert result["shm_bytes"] == 32 * 1024**2


@under(*ISOLATING)
def test_validate_checks_format_against_the_public_sample_and_never_scores(hostile) -> None:
    checks = hostile("validate", alt_value="1").result["validate"]
    assert checks["sample"]["code"] == 0 and checks["default"]["code"] == 0
    assert checks["alternative"]["code"] == 0
    # Two different valid submissions get the same answer: nothing about their quality leaks.
    assert checks["sample"]["out"].replace("sample.csv", "X") == checks["alternative"]["out"].replace(
        "alternative.csv", "X"
    )
    assert checks["missing_rows"]["code"] == 1 and "missing ids" in checks["missing_rows"]["out"]
    assert checks["bad_columns"]["code"] == 1 and "missing columns" in checks["bad_columns"]["out"]
    for case in checks.values():
        assert "score" not in case["out"].lower().replace("no score is given", "")
