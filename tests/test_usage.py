"""Usage accounting: the agent's usage file read and priced into run.json, summed per agent in the report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from cells import run_local
from test_report import _rec

from mlebench.reporting.html import to_html
from mlebench.reporting.report import ReportData, aggregate, to_markdown
from mlebench.reporting.usage import read_usage, sum_usage
from mlebench_spec.manifest import write_manifest
from mlebench_spec.params import AgentConfig, Hardware

HW = Hardware(name="t", cpus=1, memory="1g", shm_size="64m", pids=64, gpus=0, time_limit_secs=60)
PRICES = {"prompt_per_1k": 0.5, "completion_per_1k": 2.0, "currency": "USD"}
GOOD = {
    "format": "mlebench-usage/1",
    "counted_at": "agent",
    "requests": 3,
    "prompt_tokens": 2000,
    "completion_tokens": 500,
    "models": {"m": {"requests": 3, "prompt_tokens": 2000, "completion_tokens": 500}},
}


def _write(run_dir: Path, data: object) -> None:
    (run_dir / "logs").mkdir(parents=True, exist_ok=True)
    text = data if isinstance(data, str) else json.dumps(data)
    (run_dir / "logs" / "usage.json").write_text(text, encoding="utf-8")


def test_a_usage_file_is_read_and_priced(tmp_path: Path) -> None:
    _write(tmp_path, GOOD)
    usage = read_usage(tmp_path, PRICES)
    assert {k: usage[k] for k in ("requests", "prompt_tokens", "completion_tokens")} == {
        "requests": 3,
        "prompt_tokens": 2000,
        "completion_tokens": 500,
    }
    assert usage["cost"] == pytest.approx(2000 / 1000 * 0.5 + 500 / 1000 * 2.0) and usage["prices"] == PRICES
    assert "cost" not in read_usage(tmp_path) and read_usage(tmp_path / "none") == {}


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("{not json", "Expecting property name"),
        ([1, 2], "not a JSON object"),
        ({**GOOD, "requests": -1}, "requests must be a non-negative integer"),
        ({**GOOD, "prompt_tokens": True}, "prompt_tokens must be a non-negative integer"),
        ({**GOOD, "completion_tokens": "12"}, "completion_tokens must be a non-negative integer"),
        ({**GOOD, "format": "other/2"}, "format 'other/2'"),
        ({**GOOD, "models": {"m": {"requests": 1}}}, "models['m'].prompt_tokens"),
    ],
)
def test_a_malformed_usage_file_is_a_warning_and_a_recorded_problem(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], content: object, problem: str
) -> None:
    _write(tmp_path, content)
    usage = read_usage(tmp_path, PRICES)
    assert set(usage) == {"problem"} and problem in usage["problem"]
    assert usage["problem"].startswith("logs/usage.json: ")
    assert "WARNING" in capsys.readouterr().err


def test_the_run_stage_writes_the_agents_usage_into_run_json_and_survives_a_bad_file(tmp_path: Path) -> None:
    agent_dir = tmp_path / "agents" / "counting"
    agent_dir.mkdir(parents=True)
    (agent_dir / "main.py").write_text(
        "import json, os, pathlib, sys\n"
        "kw = json.loads(os.environ['AGENT_KWARGS'])\n"
        "p = pathlib.Path(os.environ['LOGS_DIR']) / 'usage.json'\n"
        "p.write_text(kw['usage'] if isinstance(kw['usage'], str) else json.dumps(kw['usage']))\n"
        "(pathlib.Path(os.environ['SUBMISSION_DIR']) / 'submission.csv').write_text('id,y\\n1,0\\n')\n"
    )
    public = tmp_path / "prepared" / "public"
    public.mkdir(parents=True)
    (public / "description.md").write_text("# t\n")
    write_manifest(public.parent)
    for name, usage, prices in (("good", GOOD, PRICES), ("bad", "{oops", None)):
        agent = AgentConfig(
            path="agents/counting", command=["python", "main.py"], kwargs={"usage": usage}, prices=prices
        )
        run_local("t", "counting", agent, HW, 0, public, tmp_path / name, tmp_path)
    good = json.loads((tmp_path / "good" / "run.json").read_text())
    assert good["status"] == "ok" and good["usage"]["requests"] == 3 and good["usage"]["cost"] == 2.0
    bad = json.loads((tmp_path / "bad" / "run.json").read_text())
    assert bad["status"] == "ok" and set(bad["usage"]) == {"problem"}


def test_a_run_without_a_usage_file_writes_no_usage_key(tmp_path: Path) -> None:
    agent_dir = tmp_path / "agents" / "quiet"
    agent_dir.mkdir(parents=True)
    (agent_dir / "main.py").write_text("pass\n")
    public = tmp_path / "prepared" / "public"
    public.mkdir(parents=True)
    write_manifest(public.parent)
    agent = AgentConfig(path="agents/quiet", command=["python", "main.py"])
    run_local("t", "quiet", agent, HW, 0, public, tmp_path / "out", tmp_path)
    assert "usage" not in json.loads((tmp_path / "out" / "run.json").read_text())
    assert "prices" not in agent.model_dump()  # unpriced configs serialise as before


def _used(agent: str, cid: str, seed: int, usage: dict) -> dict:
    return {**_rec(agent, cid, seed, False), "usage": usage}


def test_the_report_sums_usage_per_agent_and_counts_problems() -> None:
    priced = {"requests": 2, "prompt_tokens": 100, "completion_tokens": 10, "cost": 0.25, "prices": PRICES}
    unpriced = {"requests": 5, "prompt_tokens": 300, "completion_tokens": 40}
    records = [
        _used("llm", "a", 0, priced),
        _used("llm", "b", 0, unpriced),
        _used("llm", "a", 1, {"problem": "logs/usage.json: not a JSON object; its usage is not counted"}),
        _rec("plain", "a", 0, False),
    ]
    report = aggregate(
        ReportData(records, ["llm", "plain"], ["a", "b"], [0, 1], "set", {"a": "embedded", "b": "embedded"})
    )
    assert report["agents"]["llm"]["usage"] == {
        "cells": 2,
        "requests": 7,
        "prompt_tokens": 400,
        "completion_tokens": 50,
        "priced_cells": 1,
        "cost": 0.25,
        "currency": "USD",
        "problems": 1,
    }
    assert report["agents"]["plain"]["usage"]["cells"] == 0
    md = to_markdown(report)
    assert "## Model usage" in md and "| llm | 2 | 7 | 400 | 50 | 0.2500 USD (1 priced) |" in md
    assert (
        "llm: 1 cell(s) with a malformed usage file" in md
        and "| plain |" not in md.split("## Model usage")[1].split("##")[0]
    )
    html = to_html(report)
    assert 'id="usage"' in html and "0.2500 USD" in html and "malformed usage file" in html


def test_a_report_without_usage_has_no_usage_section() -> None:
    report = aggregate(ReportData([_rec("x", "a", 0, True)], ["x"], ["a"], [0], "set", {"a": "embedded"}))
    assert "Model usage" not in to_markdown(report) and 'id="usage"' not in to_html(report)
    assert sum_usage([]) == {
        "cells": 0,
        "requests": 0,
        "prompt_tokens": 0,
        "completion_tokens": 0,
        "priced_cells": 0,
        "cost": None,
        "currency": "",
        "problems": 0,
    }
