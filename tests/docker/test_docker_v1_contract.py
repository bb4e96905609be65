"""MLE-bench v1's agent contract in our agent container: its paths, variables and validation interfaces.

v1's instructions and agents validate by running ``/home/validate_submission.sh FILE`` or by POSTing the
file (multipart field ``file``) to ``http://localhost:5000/validate``, which answers 200 with
``{"result": "Submission is valid."}`` or ``{"result": "Submission invalid! ..."}``; its agents find their
folders in ``SUBMISSION_DIR``, ``LOGS_DIR``, ``CODE_DIR`` and ``AGENT_DIR`` (``/home/...``) and the task in
``COMPETITION_ID``. Here the docker runner, unchanged, runs agents that rely on exactly that.
"""

# ruff: noqa: F811 - fixtures are imported from container_fixtures and then named as test parameters

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cells import grade_run, run_docker
from container_fixtures import (  # noqa: F401 - fixtures
    ENGINES,
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

from mlebench_spec.declarations import load_competition
from mlebench_spec.params import AgentConfig, DockerSettings

pytestmark = [pytest.mark.docker, under(*ISOLATING)]
ROOT = Path(__file__).resolve().parents[2]
V1_DIRS = {
    "SUBMISSION_DIR": "/home/submission",
    "LOGS_DIR": "/home/logs",
    "CODE_DIR": "/home/code",
    "AGENT_DIR": "/home/agent",
}
"""v1's agents/.shared_env: where v1 agents put (and v1's runner collects) submission, logs and code."""


def test_an_agent_written_like_v1s_dummy_runs_and_grades(runner, titanic, hw, tmp_path, request) -> None:
    settings = request.getfixturevalue("settings") if runner in ENGINES else DockerSettings()
    agent = AgentConfig(path="tests/docker/v1_dummy_agent", command=["bash", "start.sh"])
    out = tmp_path / "run"
    record = run_docker(
        titanic.id, "v1-dummy", agent, hw, 0, titanic.public, out, ROOT, settings, runner=runner
    )
    assert record.status == "ok", (record.status, record.reason)
    log = (out / "agent_output.log").read_text(errors="replace")
    assert record.submission_exists, (record.reason, log[-2000:])
    assert "no root access" in log and "no access to /private" in log
    assert (out / "code" / "code.py").is_file() and (out / "logs" / "run.log").is_file()
    assert json.loads((out / "logs" / "validation.json").read_text()) == {"result": "Submission is valid."}
    graded = grade_run(
        load_competition(titanic.id, ROOT), "v1-dummy", 0, out, titanic.public, titanic.private, ROOT
    )
    assert graded["status"] == "ok" and graded["valid_submission"], graded["reason"]
    assert titanic.token not in log


def test_v1s_variables_name_v1s_folders(hostile) -> None:
    env = hostile("env").result["env"]
    assert {name: env.get(name) for name in V1_DIRS} == V1_DIRS
    assert env["COMPETITION_ID"] == "titanic-lite" and env["TIME_LIMIT_SECS"].isdigit()


def test_validation_by_curl_and_by_script_says_valid_or_invalid_and_never_scores(hostile) -> None:
    run = hostile("v1_validate")
    checks = run.result["v1_validate"]
    good, bad = checks["good"], checks["bad"]
    assert good["http_status"] == "200" and json.loads(good["curl"]) == {"result": "Submission is valid."}
    assert json.loads(good["script"]) == {"result": "Submission is valid."} and good["script_code"] == 0
    assert bad["http_status"] == "200"
    for reply in (json.loads(bad["curl"]), json.loads(bad["script"])):
        assert reply["result"].startswith("Submission invalid! ") and "missing columns" in reply["result"]
    assert json.loads(run.result["health"]) == {"status": "running"}
    for case in checks.values():
        assert "score" not in (case["curl"] + case["script"]).lower()
    assert run.result["listening"] == ["127.0.0.1:5000"], "the server listens on the loopback only"
    assert run.record.status == "ok"
