"""Both LLM agents end to end in containers against the LLM stand-in: model → code → run → submission → grade.

The stand-in (authoring/llm_standin.py) replays a scripted conversation per competition
(tests/llm_conversations.py) that hands each agent the solution in tests/agents/llm_scripts. Each run goes
through the run stage's own path (:func:`mlebench.execution.runners.run_cell`: the Docker runner, then the
usage file into run.json), is graded, and is aggregated into the report. The agents run under the network
policy ``llm``: the stand-in listens where the runner's proxy reaches the host (as the ``llm_endpoint``
fixture's does; one stand-in per cell here, so each cell runs once per module) and is the only endpoint their
egress proxy lets through; the key reaches them by ``api_key_env`` (the stand-in refuses any other).
"""

# ruff: noqa: F811 - fixtures are imported from container_fixtures and then named as test parameters

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from cells import cell, engine_runner, share
from container_fixtures import (  # noqa: F401 - fixtures
    ENGINES,
    ROOT,
    docker_client,
    env_ref,
    needs_network,
    podman_service,
    runner,
    settings,
    under,
)
from llm_conversations import SCRIPTS, aide_turns, toolcall_turns
from llm_fixtures import endpoint_host

from authoring.llm_standin import StandinLLM
from graders.grade import grade
from mlebench.execution.grading import grade_cell
from mlebench.execution.runners import run_cell
from mlebench.reporting.report import ReportData, aggregate
from mlebench_spec.params import AgentConfig, DockerSettings, Hardware, Prices

pytestmark = [pytest.mark.docker, under(*ENGINES, "sandbox")]

HW = Hardware(name="llm-test", cpus=1, memory="1g", shm_size="64m", pids=256, gpus=0, time_limit_secs=600)
PRICES = Prices(prompt_per_1k=0.15, completion_per_1k=0.6)
KEY_ENV, KEY = "MLEBENCH_TEST_LLM_KEY", "sk-standin-5f0c9a7e"
AGENTS = {
    "toolcall": (toolcall_turns, {"model": "standin-toolcall", "temperature": 0.2, "max_steps": 8}),
    "aide": (
        aide_turns,
        {
            "model": "standin-coder",
            "feedback_model": "standin-reviewer",
            "steps": 2,
            "exec_timeout_secs": 300,
            "aide": {"agent": {"search": {"num_drafts": 1, "debug_prob": 1.0}, "k_fold_validation": 1}},
        },
    ),
}


@dataclass
class LLMRun:
    """One agent's cell: the stand-in that served it, its run.json and its grading record."""

    llm: StandinLLM
    run: dict[str, Any]
    grade: dict[str, Any]
    out: Path


@pytest.fixture(scope="module")
def gateway(runner: str, request: pytest.FixtureRequest) -> str:
    """Return the address the runner's egress proxy reaches this host at (:func:`endpoint_host`)."""
    return endpoint_host(runner, request)


SANDBOX_AGENTS = ("toolcall",)
"""The agents the sandbox runs: it builds an agent's own Python from its requirements.txt
(:mod:`mlebench.execution.agent_env`); aide's image installs aideml beyond it (``--no-deps``, its
Dockerfile), which the sandbox does not do."""


def agents_under(runner: str) -> list[str]:
    """Return the agents that can run under ``runner``: all of them in an image, in the sandbox some."""
    if runner in ENGINES:
        return sorted(AGENTS)
    return sorted(a for a in AGENTS if a in SANDBOX_AGENTS)


@pytest.fixture(scope="module")
def llm_cell(
    runner: str,
    gateway: str,
    prepare_once: Callable,
    tmp_path_factory,
    request: pytest.FixtureRequest,
) -> Callable[..., LLMRun]:
    """Run an agent on a competition against a fresh stand-in (each pair once per module); grade it."""
    needs_network(runner, "llm")
    if runner in ENGINES:
        request.getfixturevalue("env_ref")
        settings = request.getfixturevalue("settings")
    else:
        settings = DockerSettings()
    done: dict[tuple[str, str], LLMRun] = {}

    def run(agent: str, competition_id: str) -> LLMRun:
        if agent not in agents_under(runner):
            pytest.skip(f"{agent}'s image installs more than its requirements.txt: not run in the sandbox")
        if (agent, competition_id) not in done:
            turns, kwargs = AGENTS[agent]
            prepared = prepare_once(competition_id)
            out = tmp_path_factory.mktemp(f"{agent}-{competition_id}")
            conversation = {competition_id: turns(competition_id)}
            with StandinLLM(conversations=conversation, host=gateway, key=KEY) as llm:
                config = AgentConfig(
                    path=f"agents/{agent}",
                    command=["python", "main.py"],
                    kwargs={**kwargs, "base_url": llm.base_url, "api_key_env": KEY_ENV},
                    network="llm",
                    endpoints=[f"{gateway}:{llm.port}"],
                    api_key_env=KEY_ENV,
                    prices=PRICES,
                )
                c = cell(competition_id, agent, config, HW, 0, prepared.public, out, ROOT, prepared.private)
                os.environ[KEY_ENV] = KEY
                try:
                    share(prepared.public, prepared.private, out)
                    run_cell(c, *engine_runner(runner, settings))
                finally:
                    del os.environ[KEY_ENV]
            record = grade_cell(c, grader="host").to_json()
            done[(agent, competition_id)] = LLMRun(
                llm, json.loads((out / "run.json").read_text()), record, out
            )
        return done[(agent, competition_id)]

    return run


def by_hand(competition_id: str, public: Path, work: Path) -> Path:
    """Run the scripted solution as a person would, on the same prepared files; return its submission."""
    work.mkdir(parents=True)
    (work / "input").symlink_to(public)
    (work / "working").mkdir()
    shutil.copy(SCRIPTS / f"{competition_id}.py", work / "solution.py")
    env = {**os.environ, "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1"}
    subprocess.run([sys.executable, "solution.py"], cwd=work, env=env, check=True, capture_output=True)
    return work / "working" / "submission.csv"


@pytest.mark.parametrize("agent", sorted(AGENTS))
@pytest.mark.parametrize("competition_id", ["titanic-lite", "chicago-ridership"])
def test_the_agent_reaches_a_graded_submission_that_scores_what_the_code_scores_by_hand(
    llm_cell, prepare_once, tmp_path: Path, agent: str, competition_id: str
) -> None:
    result = llm_cell(agent, competition_id)
    assert result.run["status"] == "ok", (result.out / "agent_output.log").read_text()[-3000:]
    assert result.grade["status"] == "ok" and result.grade["valid_submission"]
    prepared = prepare_once(competition_id)
    hand = grade(prepared.comp, by_hand(competition_id, prepared.public, tmp_path / "hand"), prepared.private)
    assert hand.status == "ok"
    assert result.grade["score"] == round(hand.score, 5)
    kept = (result.out / "code").rglob("solution.py")
    assert any("validation" in p.read_text() for p in kept), "the agent's code is kept in /home/code"


@pytest.mark.parametrize("agent", sorted(AGENTS))
def test_usage_in_run_json_is_what_the_standin_counted_and_is_priced(llm_cell, agent: str) -> None:
    result = llm_cell(agent, "titanic-lite")
    usage, served = result.run["usage"], result.llm.usage("titanic-lite")
    assert {k: usage[k] for k in served} == served and served["requests"] == 4
    assert usage["counted_at"] == {"toolcall": "agent", "aide": "adapter"}[agent]
    cost = served["prompt_tokens"] / 1000 * 0.15 + served["completion_tokens"] / 1000 * 0.6
    assert usage["cost"] == pytest.approx(cost) and usage["prices"]["currency"] == "USD"
    assert result.grade["usage"] == usage


def test_toolcall_kwargs_reach_the_agent_and_it_streams(llm_cell) -> None:
    result = llm_cell("toolcall", "titanic-lite")
    sent = result.llm.requests
    assert {r["model"] for r in sent} == {"standin-toolcall"} and {r["temperature"] for r in sent} == {0.2}
    assert all(r["stream"] and r["stream_options"] == {"include_usage": True} for r in sent)
    assert [t["function"]["name"] for t in sent[0]["tools"]] == ["write_file", "run", "validate", "finish"]
    tool_results = [m["content"] for m in sent[-1]["messages"] if m["role"] == "tool"]
    assert tool_results[1].startswith("exit code 0") and tool_results[2].startswith("exit code 0")
    assert "Competition: titanic-lite" in sent[0]["messages"][0]["content"]
    assert "# Titanic Lite" in sent[0]["messages"][1]["content"]  # description.md


def test_aide_kwargs_reach_aide_and_its_review_is_a_function_call(llm_cell) -> None:
    result = llm_cell("aide", "titanic-lite")
    sent = result.llm.requests
    assert [r["model"] for r in sent] == ["standin-coder", "standin-reviewer"] * 2
    reviews = sent[1::2]
    assert all(
        r["tool_choice"] == {"type": "function", "function": {"name": "submit_review"}} for r in reviews
    )
    assert "Previous (buggy) implementation" in sent[2]["messages"][0]["content"]  # the debug step
    journal = json.loads(next((result.out / "logs").rglob("journal.json")).read_text())
    assert len(journal["nodes"]) == 2  # steps: 2
    printed = result.llm.served[3]
    assert printed["conversation"] == "titanic-lite"


def test_the_key_reached_the_standin_and_is_in_no_output_file(llm_cell, runner) -> None:
    for agent in agents_under(runner):
        result = llm_cell(agent, "titanic-lite")
        assert result.llm.requests and result.run["network"] == "llm"
        leaked = [p for p in result.out.rglob("*") if p.is_file() and KEY.encode() in p.read_bytes()]
        assert leaked == [] and KEY not in json.dumps(result.grade)


def test_the_report_sums_usage_per_agent(llm_cell, runner) -> None:
    agents = agents_under(runner)
    runs = [llm_cell(a, c) for a in agents for c in ("titanic-lite", "chicago-ridership")]
    report = aggregate(
        ReportData(
            [r.grade for r in runs],
            agents,
            ["titanic-lite", "chicago-ridership"],
            [0],
            "custom",
            {"titanic-lite": "embedded", "chicago-ridership": "embedded"},
        )
    )
    for agent in agents:
        mine = [r for r in runs if r.run["agent"] == agent]
        summed = report["agents"][agent]["usage"]
        assert summed["cells"] == 2 and summed["priced_cells"] == 2 and summed["problems"] == 0
        for key in ("requests", "prompt_tokens", "completion_tokens"):
            assert summed[key] == sum(r.llm.usage()[key] for r in mine)
        assert summed["cost"] == pytest.approx(sum(r.run["usage"]["cost"] for r in mine))


@pytest.fixture(autouse=True)
def _no_proxy(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Clear the proxy the session's Kaggle stand-in may set: the stand-in is on this host."""
    for var in ("HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy"):
        monkeypatch.delenv(var, raising=False)
    yield
