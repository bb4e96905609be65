"""Engine faults against the real engines: Slurm jobs requeued or cancelled, a Ray worker killed, mid-cell.

A Ray worker dies once with a shared disk and once running the stage in a checkout of its own. The lost
attempt ends ``infra_error`` and is retried with bounded backoff, and the end state is as if the cell ran
once (every cell graded, ``dvc repro`` a no-op). An agent that fails on its own (exit 3) is never retried:
its cell is graded ``agent_error`` after one dispatch.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest
from checkout_copy import copy_checkout, plan_and_commit
from checkout_copy import run as _run
from sleep_agent import add_sleep_agent

pytestmark = pytest.mark.slow
CI = os.environ.get("CI") == "true"
SLEEP = "pipelines/titanic-lite/sleep-s{0}/dvc.yaml:run_agent-sleep-s{0}"


def _grid(tmp: Path) -> Path:
    repo = copy_checkout(tmp)
    add_sleep_agent(repo, 12)
    failing = repo / "agents" / "failing"
    failing.mkdir(parents=True)
    (failing / "main.py").write_text("raise SystemExit(3)\n")
    (failing / "requirements.txt").write_text("")
    (repo / "conf" / "agent" / "failing.yaml").write_text(
        "failing:\n  path: agents/failing\n  command: [python, main.py]\n"
        "  disclosures: {models: [], uses_test_feedback: false, web_search: false}\n"
    )
    plan_and_commit(
        repo,
        [
            "competition_set=custom",
            "competition_set.ids=[titanic-lite]",
            "seeds=[0,1]",
            "agent=[sleep,failing]",
        ]
        + ["runner=local", "hardware.cpus=0.1", "hardware.memory=64m"],
    )
    for stage in ("fetch", "prepare", "selfcheck", "audit"):
        _run(["dvc", "repro", "-s", f"pipelines/titanic-lite/dvc.yaml:{stage}"], repo)
    return repo


def _events(repo: Path) -> list[dict]:
    log = repo / "runs" / ".scheduler" / "events.jsonl"
    return [json.loads(x) for x in log.read_text().splitlines() if x.endswith("}")] if log.exists() else []


def _start(repo: Path, *args: str) -> subprocess.Popen:
    env = {k: v for k, v in os.environ.items() if k != "MLEBENCH_ROOT"}
    env["PATH"] = f"{Path(sys.executable).parent}:{env['PATH']}"
    cmd = [sys.executable, "-m", "mlebench.cli", "run", "--no-progress", "--jobs", "2", *args]
    cmd += ["executor.backoff_secs=1", "executor.retries=2"]
    return subprocess.Popen(
        cmd, cwd=repo, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True
    )


def _until(proc: subprocess.Popen, what: str, test, timeout: float = 600):  # noqa: ANN001
    deadline = time.monotonic() + timeout
    while True:
        found = test()
        if found:
            return found
        assert proc.poll() is None, f"the scheduler ended before {what}: {proc.stdout.read()[-3000:]}"
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.3)


def _started(repo: Path, stage: str) -> str:
    return next((e["job_id"] for e in _events(repo) if e["event"] == "started" and e["stage"] == stage), "")


def _assert_ran_once_in_the_end(repo: Path, proc: subprocess.Popen, lost: list[str]) -> None:
    out, _ = proc.communicate(timeout=900)
    assert proc.returncode == 0, out[-3000:]
    events = _events(repo)
    for stage in lost:
        mine = [e for e in events if e.get("stage") == stage]
        assert [e["status"] for e in mine if e["event"] == "finished"] == ["infra_error", "ok"], mine
        retried = [e for e in mine if e["event"] == "retried"]
        assert len(retried) == 1 and 0 < retried[0]["delay"] <= 60, retried
        assert sum(e["event"] == "recorded" for e in mine) == 1
    # the failing agent's cells: one dispatch each, graded agent_error; the sleep agent's all ok
    dispatched = Counter(e["stage"] for e in events if e["event"] == "dispatched")
    for seed in (0, 1):
        assert dispatched[f"pipelines/titanic-lite/failing-s{seed}/dvc.yaml:run_agent-failing-s{seed}"] == 1
    statuses = {
        p.parent.parent.name + "/" + p.stem: json.loads(p.read_text())["status"]
        for p in (repo / "grades").rglob("*.json")
    }
    assert statuses == {
        "sleep/0": "ok",
        "sleep/1": "ok",
        "failing/0": "agent_error",
        "failing/1": "agent_error",
    }
    assert "Running stage" not in _run(["dvc", "repro"], repo).stdout


def _slurm_state(job: str) -> str:
    return subprocess.run(
        ["squeue", "-h", "-o", "%T", "-j", job], capture_output=True, text=True
    ).stdout.strip()


@pytest.mark.slurm
def test_a_requeued_and_a_cancelled_slurm_job_are_retried_and_end_as_if_run_once(tmp_path: Path) -> None:
    if not (shutil.which("sinfo") and subprocess.run(["sinfo"], capture_output=True).returncode == 0):
        if CI:
            pytest.fail("no Slurm cluster answers: run environment/start_slurm.sh")
        pytest.skip("no Slurm cluster (environment/start_slurm.sh starts one)")
    repo = _grid(tmp_path)
    proc = _start(repo, "--executor", "slurm")
    faults = {0: "requeue", 1: "scancel"}  # requeued (as a preemption policy would), cancelled
    seen: dict[int, float] = {}

    def fault_the_running() -> bool:
        for seed in list(faults):
            job = _started(repo, SLEEP.format(seed))
            if not job or _slurm_state(job) != "RUNNING":
                continue
            seen.setdefault(seed, time.monotonic())
            if time.monotonic() - seen[seed] < 2:  # the executor has polled it running
                continue
            if faults.pop(seed) == "requeue":  # the executor submits --no-requeue; an admin overrides it
                subprocess.run(["scontrol", "update", f"JobId={job}", "Requeue=1"], check=True)
                subprocess.run(["scontrol", "requeue", job], check=True)
            else:
                subprocess.run(["scancel", job], check=True)
        return not faults

    _until(proc, "both sleep cells running and faulted", fault_the_running)
    _assert_ran_once_in_the_end(repo, proc, [SLEEP.format(0), SLEEP.format(1)])


def _worker_of(cmd_part: str) -> int:
    """Return the pid of the Ray worker whose stage command line contains ``cmd_part`` (its parent), or 0."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
            if cmd_part in cmdline and "/bin/sh" in cmdline:
                stat = (entry / "stat").read_text()
                return int(stat.rsplit(")", 1)[1].split()[1])
        except (OSError, ValueError, IndexError):
            continue
    return 0


@pytest.mark.ray
def test_a_killed_ray_worker_is_retried_and_the_cell_ends_as_if_run_once(tmp_path: Path) -> None:
    pytest.importorskip("ray") if not CI else None
    repo = _grid(tmp_path)
    address = os.environ.get("MLEBENCH_RAY_ADDRESS", "")
    proc = _start(repo, "--executor", "ray", f"executor.address={address}")
    _until(proc, "seed 0's task", lambda: _started(repo, SLEEP.format(0)))
    worker = _until(proc, "seed 0's worker", lambda: _worker_of("--agent sleep --seed 0"))
    time.sleep(1)
    os.kill(worker, signal.SIGKILL)
    _assert_ran_once_in_the_end(repo, proc, [SLEEP.format(0)])


def _ray_worker_running(task: str, cmd_part: str) -> int:
    """Return the pid of the Ray worker running ``task`` once its stage command (``cmd_part``) runs, or 0."""
    procs = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                cmdline = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                continue
            procs[int(entry.name)] = (cmdline, parent)
    for pid, (cmdline, _) in procs.items():
        if cmd_part in cmdline and "stages.run_agent" in cmdline:
            while pid in procs and not procs[pid][0].startswith(f"ray::{task}"):
                pid = procs[pid][1]
            return pid if pid in procs else 0
    return 0


@pytest.mark.ray
def test_a_killed_ray_worker_without_a_shared_disk_is_retried_and_the_cell_ends_as_if_run_once(
    tmp_path: Path,
) -> None:
    """The worker dies mid-agent, in its own checkout: lost (infra), retried, handed back once."""
    pytest.importorskip("ray") if not CI else None
    repo = _grid(tmp_path)  # its data stages recorded here: the coordinator pushes their outputs first
    workers = f"executor.worker_checkout={tmp_path / 'workers'}"
    proc = _start(repo, "--executor", "ray", "executor.shared_disk=false", workers, "executor.num_cpus=4")
    _until(proc, "seed 0's task", lambda: _started(repo, SLEEP.format(0)))
    worker = _until(proc, "seed 0's agent", lambda: _ray_worker_running("run_agent-sleep-s0", "--seed 0"))
    time.sleep(1)
    os.kill(worker, signal.SIGKILL)
    _assert_ran_once_in_the_end(repo, proc, [SLEEP.format(0)])
