"""The toolcall agent as a subprocess against the LLM stand-in: its budgets, tools and usage file.

The container tests (tests/docker/test_docker_llm_agents.py) run it end to end; these check the options
cheaply, on a tiny public folder, with the agent contract's environment.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from authoring.llm_standin import StandinLLM

AGENT = Path(__file__).resolve().parents[2] / "agents" / "toolcall" / "main.py"


def _run(tmp_path: Path, llm: StandinLLM, **kwargs: object) -> tuple[int, Path, float]:
    dirs = {name: tmp_path / name for name in ("data", "code", "submission", "logs")}
    for folder in dirs.values():
        folder.mkdir(exist_ok=True)
    (dirs["data"] / "description.md").write_text("# Tiny\n\nPredict y.\n")
    env = {k: v for k, v in os.environ.items() if "proxy" not in k.lower()}
    env.update(
        DATA_DIR=str(dirs["data"]),
        CODE_DIR=str(dirs["code"]),
        SUBMISSION_DIR=str(dirs["submission"]),
        LOGS_DIR=str(dirs["logs"]),
        COMPETITION_ID="tiny-comp",
        TIME_LIMIT_SECS="120",
        INSTRUCTIONS_FILE=str(tmp_path / "absent.txt"),
        AGENT_KWARGS=json.dumps({"base_url": llm.base_url, "model": "m-1", **kwargs}),
    )
    t0 = time.monotonic()
    done = subprocess.run([sys.executable, str(AGENT)], env=env, capture_output=True, text=True, timeout=120)
    return done.returncode, dirs["logs"], time.monotonic() - t0


def _call(name: str, **arguments: object) -> dict:
    return {"content": None, "tool_calls": [{"name": name, "arguments": arguments}]}


SUBMIT = _call("run", command='printf "id,y\\n1,0\\n" > "$SUBMISSION_DIR/submission.csv"')


@pytest.mark.parametrize("stream", [True, False])
def test_it_runs_the_tools_and_its_usage_file_is_what_the_standin_counted(
    tmp_path: Path, stream: bool
) -> None:
    turns = [_call("write_file", path="a/b.py", content="print(1)\n"), SUBMIT, _call("finish", summary="ok")]
    with StandinLLM(conversations={"tiny-comp": turns}) as llm:
        code, logs, _ = _run(tmp_path, llm, stream=stream)
    assert code == 0 and (tmp_path / "code" / "a" / "b.py").read_text() == "print(1)\n"
    assert all(bool(r.get("stream")) == stream for r in llm.requests)
    usage = json.loads((logs / "usage.json").read_text())
    assert {k: usage[k] for k in ("requests", "prompt_tokens", "completion_tokens")} == llm.usage()
    assert usage["format"] == "mlebench-usage/1" and usage["models"]["m-1"]["requests"] == 3
    assert usage["unreported_requests"] == 0
    transcript = [json.loads(line) for line in (logs / "transcript.jsonl").read_text().splitlines()]
    assert [m["role"] for m in transcript] == ["system", "user"] + ["assistant", "tool"] * 3


def test_the_step_budget_stops_it(tmp_path: Path) -> None:
    with StandinLLM(conversations={"tiny-comp": [_call("run", command="true")] * 5 + [SUBMIT]}) as llm:
        code, logs, _ = _run(tmp_path, llm, max_steps=2)
    assert len(llm.requests) == 2 and code == 1  # no submission was written
    assert "step budget of 2 model calls used" in (logs / "agent.log").read_text()


def test_the_token_budget_stops_it(tmp_path: Path) -> None:
    with StandinLLM(conversations={"tiny-comp": [_call("run", command="true")] * 5}) as llm:
        _, logs, _ = _run(tmp_path, llm, max_total_tokens=10)
    assert len(llm.requests) == 1 and llm.usage()["prompt_tokens"] > 10
    assert "token budget of 10 tokens used" in (logs / "agent.log").read_text()


def test_the_time_budget_cuts_a_command_and_stops_it(tmp_path: Path) -> None:
    turns = [_call("run", command="sleep 90", timeout_secs=100), SUBMIT]
    with StandinLLM(conversations={"tiny-comp": turns}) as llm:
        _, logs, seconds = _run(tmp_path, llm, max_seconds=20)  # counted from start-up (imports included)
    assert seconds < 60 and len(llm.requests) == 1
    assert "time budget of 20 s used" in (logs / "agent.log").read_text()
    tool = json.loads((logs / "transcript.jsonl").read_text().splitlines()[-1])
    assert tool["role"] == "tool" and tool["content"].startswith("timed out after")


def test_a_path_outside_code_dir_is_refused_and_a_bad_tool_is_reported(tmp_path: Path) -> None:
    turns = [_call("write_file", path="../escape.py", content="x"), _call("no_such_tool"), "I give up."]
    with StandinLLM(conversations={"tiny-comp": turns}) as llm:
        code, _, _ = _run(tmp_path, llm)
    assert code == 1 and not (tmp_path / "escape.py").exists()
    results = [m["content"] for m in llm.requests[-1]["messages"] if m["role"] == "tool"]
    assert "is not a file path under $CODE_DIR" in results[0] and "no tool 'no_such_tool'" in results[1]
