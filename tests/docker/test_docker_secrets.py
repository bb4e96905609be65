"""The agent's API key (``api_key_env``) reaches the agent and nothing the run leaves behind.

A hostile agent under network ``llm`` prints its key, writes it into its code, logs and a file name, and
sends it to the stand-in model API through the proxy (as a bearer token and in a query string, which
squid's access log leaves out). `dvc repro` of that one cell (run, grade, integrity, report) in a copy of the
checkout must leave the value in no file of the copy: not the run folder, the grading record, the report,
dvc.lock nor DVC's cache.
"""

# ruff: noqa: F811 - fixtures are imported from the fixture modules and then named as test parameters

from __future__ import annotations

import json
import uuid
from pathlib import Path

import pytest
from cells import plan_overrides, share
from checkout_copy import copy_checkout, plan_and_commit
from checkout_copy import run as _run
from container_fixtures import (  # noqa: F401 - fixtures
    ENGINES,
    docker_client,
    needs_network,
    podman_service,
    runner,
    under,
)
from llm_fixtures import llm_endpoint  # noqa: F401 - a fixture

from mlebench_spec.params import AgentConfig
from mlebench_spec.paths import grade_path, run_dir

pytestmark = [pytest.mark.docker, pytest.mark.slow, under(*ENGINES)]
# gVisor is the docker runner under the runtime runsc
KEY_ENV = "MLEBENCH_TEST_API_KEY"


def test_the_key_is_in_no_output_file(llm_endpoint, runner, tmp_path: Path) -> None:
    needs_network(runner, "llm")
    key = f"sk-test-{uuid.uuid4().hex}"
    llm_endpoint.standin.key = key  # answers 401 unless the agent sends this very key
    repo = copy_checkout(tmp_path)
    agent = {
        "path": "tests/docker/hostile_agent",
        "command": ["python", "hostile.py"],
        "kwargs": {"attack": "leak_key", "key_env": KEY_ENV, "base_url": llm_endpoint.base_url},
        "network": "llm",
        "endpoints": [llm_endpoint.endpoint],
        "api_key_env": KEY_ENV,
        "disclosures": {"models": ["standin-model"], "uses_test_feedback": False, "web_search": False},
    }
    AgentConfig.model_validate(agent)
    (repo / "conf" / "agent" / "leaky.yaml").write_text(json.dumps({"leaky": agent}) + "\n")
    plan_and_commit(
        repo,
        [
            "agent=[leaky]",
            "competition_set=custom",
            "competition_set.ids=[titanic-lite]",
            "seeds=[0]",
            *plan_overrides(runner),
            "hardware.cpus=1",
        ],
    )
    share(repo)
    _run(["dvc", "repro"], repo, env={KEY_ENV: key})

    out = run_dir("leaky", "titanic-lite", 0, repo)
    record = json.loads((out / "run.json").read_text())
    assert record["status"] == "ok" and record["network"] == "llm", record
    assert record["api_key_env"] == KEY_ENV and record["egress"]["endpoints"] == [llm_endpoint.endpoint]
    result = json.loads((out / "logs" / "result.json").read_text())
    assert result["key_length"] == len(key)  # the agent had the key ...
    call = result["attempts"]["allowed call with the key"]
    assert call["ok"] and call["value"].startswith("200 "), call  # ... and the stand-in accepted it
    mark = f"[redacted: {KEY_ENV}]"
    assert mark in (out / "agent_output.log").read_text()
    assert (out / "code" / "key.txt").read_text() == f"OPENAI_API_KEY={mark}\n"
    assert (out / "code" / f"named-{mark}.py").is_file()
    assert f"GET http://{llm_endpoint.endpoint}/v1/models" in (out / "proxy_access.log").read_text()
    assert any(mark in note for note in record["extraction_notes"])
    grade = json.loads(grade_path("leaky", "titanic-lite", 0, repo).read_text())
    assert grade["status"] == "ok", grade
    assert grade["lineage"]["agent_endpoints"] == llm_endpoint.endpoint, grade["lineage"]
    assert list(repo.glob("**/report.md")), "the report stage ran"

    leaks = []
    needle = key.encode()
    for path in repo.rglob("*"):
        if path.is_file() and not path.is_symlink() and needle in path.read_bytes():
            leaks.append(path.relative_to(repo).as_posix())
        if key in path.name:
            leaks.append(f"name: {path.relative_to(repo).as_posix()}")
    assert leaks == [], f"the key's value is in {leaks}"
    assert (repo / "dvc.lock").is_file() and list((repo / ".dvc" / "cache").rglob("*"))
