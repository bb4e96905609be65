"""A hostile cell beside ordinary ones never stops the grid (issue 51, findings 1 and 2).

The hostile agent leaves what stopped every runner's grid before: a name in ``logs/`` that is not UTF-8 and
a folder 1,000 levels deep in ``code/`` (DVC could not record the stage: "surrogates not allowed",
RecursionError; ``dvc repro`` stopped there and ``mlebench run`` crashed, and again on every resume), with
sparse files and thousands of files under caps lowered through the setting. It runs under the sandbox
runner, and under Docker's, beside two ordinary cells. ``mlebench run``, killed with SIGKILL once the
hostile cell ran and started again, finishes every cell and the report, and ``dvc repro`` afterwards has
nothing left to run; ``dvc repro`` running the hostile cell again and its downstream finishes them too.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from checkout_copy import copy_checkout, plan_and_commit
from checkout_copy import run as _run
from sleep_agent import add_sleep_agent

from mlebench.execution.collector import LIMITS_ENV
from mlebench.execution.sandbox import bwrap_problem

pytestmark = pytest.mark.slow
CI = os.environ.get("CI") == "true"
LIMITS = {"max_members": 1500, "max_file_bytes": 1024**2, "max_tree_bytes": 8 * 1024**2, "max_depth": 16}
HOSTILE = '''"""Hostile: names DVC cannot record, a tree 1,000 levels deep, sparse and many files."""
import os, shutil
from pathlib import Path

data, logs, code = (Path(os.environ[k]) for k in ("DATA_DIR", "LOGS_DIR", "CODE_DIR"))
shutil.copyfile(data / "sample_submission.csv", Path(os.environ["SUBMISSION_DIR"]) / "submission.csv")
with open(os.fsencode(logs) + b"/bad-\\xff.log", "wb") as fh:
    fh.write(b"x")
fd = os.open(code, os.O_RDONLY)
for _ in range(1000):
    os.mkdir("d", dir_fd=fd)
    nxt = os.open("d", os.O_RDONLY, dir_fd=fd)
    os.close(fd)
    fd = nxt
os.close(fd)
(code / "many").mkdir()
for i in range(2000):
    (code / "many" / f"f{i:05d}").write_bytes(b"")
for i in range(4):
    with open(logs / f"sparse{i}.bin", "wb") as fh:
        fh.truncate(64 * 1024**2)
(logs / "agent.log").write_text("done\\n")
'''


def _grid(tmp: Path, runner: str) -> Path:
    repo = copy_checkout(tmp)
    add_sleep_agent(repo, 0.1)
    folder = repo / "agents" / "tree"
    folder.mkdir(parents=True)
    (folder / "main.py").write_text(HOSTILE)
    (folder / "requirements.txt").write_text("")
    for agent in ("sleep", "tree"):  # the Docker runner builds each agent's image from the dummy's recipe
        shutil.copyfile(repo / "agents" / "dummy" / "Dockerfile", repo / "agents" / agent / "Dockerfile")
    for name, path in (("tree", "agents/tree"), ("plain", "agents/sleep")):  # plain: a second ordinary agent
        (repo / "conf" / "agent" / f"{name}.yaml").write_text(
            f"{name}:\n  path: {path}\n  command: [python, main.py]\n"
            "  disclosures: {models: [], uses_test_feedback: false, web_search: false}\n"
        )
    plan_and_commit(
        repo,
        ["competition_set=custom", "competition_set.ids=[titanic-lite]", "seeds=[0]"]
        + ["agent=[sleep,plain,tree]", f"runner={runner}"],
    )
    return repo


def _finished(repo: Path) -> None:
    """Every cell graded and checked, the hostile one's skips noted, the report written."""
    for agent in ("sleep", "plain", "tree"):
        grade = json.loads((repo / "grades" / agent / "titanic-lite" / "0.json").read_text())
        assert grade["status"] == "ok", (agent, grade)
        assert (repo / "integrity" / agent / "titanic-lite" / "0" / "integrity.json").is_file()
    record = json.loads((repo / "runs" / "tree" / "titanic-lite" / "0" / "run.json").read_text())
    notes = "\n".join(record["extraction_notes"])
    assert "logs/bad-\\xff.log: a name that is not valid UTF-8" in notes, notes
    assert "deeper than 16 levels" in notes and "more than 1500 entries" in notes, notes
    assert notes.count("skipped by its size, unread") == 4, notes
    assert (repo / "report" / "report.json").is_file()
    assert "Running stage" not in _run(["dvc", "repro"], repo).stdout


def _events(repo: Path) -> list[dict]:
    log = repo / "runs" / ".scheduler" / "events.jsonl"
    return [json.loads(x) for x in log.read_text().splitlines() if x.endswith("}")] if log.exists() else []


@pytest.fixture(params=["sandbox", "docker"])
def runner(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """Return the runner the grid runs under (one bounded collector serves both), with the caps lowered."""
    if request.param == "docker":
        from mlebench.execution.docker.engine import engine_problem

        problem = engine_problem()
        problem = f"no Docker engine reachable ({problem})" if problem else None
    else:
        problem = bwrap_problem()
    if problem:
        if CI:
            pytest.fail(f"CI=true but {problem}")
        pytest.skip(problem)
    monkeypatch.setenv(LIMITS_ENV, json.dumps(LIMITS))
    return request.param


def test_mlebench_run_killed_and_resumed_and_dvc_repro_finish_every_cell_past_a_hostile_cell(
    tmp_path: Path, runner: str
) -> None:
    """One grid (one prepare) for both ways of running it.

    ``mlebench run`` killed and resumed, then ``dvc repro`` itself running the hostile cell again (forced)
    and everything downstream of it, the report included.
    """
    repo = _grid(tmp_path, runner)
    env = {k: v for k, v in os.environ.items() if k != "MLEBENCH_ROOT"}
    env["PATH"] = f"{Path(sys.executable).parent}:{env['PATH']}"
    args = [sys.executable, "-m", "mlebench.cli", "run", "--no-progress", "--jobs", "2"]
    hostile = "pipelines/titanic-lite/tree-s0/dvc.yaml:run_agent-tree-s0"
    proc = subprocess.Popen(
        args, cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )
    deadline = time.monotonic() + 900
    while not any(e["event"] in ("recorded", "unrecorded") and e["stage"] == hostile for e in _events(repo)):
        assert proc.poll() is None, f"the scheduler ended early: {proc.stdout.read()[-3000:]}"
        assert time.monotonic() < deadline, "timed out waiting for the hostile cell"
        time.sleep(0.3)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    again = _run(args, repo, env={LIMITS_ENV: json.dumps(LIMITS)})
    assert "Traceback" not in again.stdout + again.stderr, again.stderr[-3000:]
    events = _events(repo)
    assert len({e["session"] for e in events}) == 2
    assert [e["event"] for e in events if e.get("stage") == hostile and e["event"] == "recorded"] == [
        "recorded"
    ]
    _finished(repo)
    # dvc repro records the hostile stage itself (it stopped there before) and goes on to the report
    before = (repo / "report" / "report.json").stat().st_mtime_ns
    t0 = time.monotonic()
    _run(["dvc", "repro", "-f", "-s", hostile], repo)
    out = _run(["dvc", "repro"], repo).stdout
    print(f"\ndvc repro of the hostile cell and its downstream: {time.monotonic() - t0:.0f} s")
    assert "grade-tree-s0" in out and "'report'" in out, out[-3000:]
    assert (repo / "report" / "report.json").stat().st_mtime_ns > before
    _finished(repo)
