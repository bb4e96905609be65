"""End to end: `mlebench run` over a reduced grid in temporary copies, against sequential `dvc repro`.

The reduced grid keeps the default grid's shape (both agents, several seeds; one competition). Covers: the
same statuses and scores as `dvc repro` through the local pool, Slurm and Ray (the real engines, started by
environment/start_slurm.sh and Ray's own local cluster); `dvc repro` afterwards runs nothing; kill -9 of the
scheduler mid-grid and the same command again loses no finished stage and runs none twice (the event log
shows it); GPUs from a fake inventory are never shared and reach the run record.
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
GRID = ["competition_set=custom", "competition_set.ids=[titanic-lite]", "seeds=[0,1]", "runner=local"]
CI = os.environ.get("CI") == "true"


def _results(repo: Path) -> dict[str, tuple]:
    out = {}
    for path in sorted((repo / "grades").rglob("*.json")):
        rec = json.loads(path.read_text())
        out[str(path.relative_to(repo))] = (rec["status"], rec["score"], rec["any_medal"])
    return out


def _locks(repo: Path) -> dict[str, dict]:
    """Each stage's lock entry: cmd, params and deps, but not deps on runs, grades, verdicts (timestamped)."""
    from ruamel.yaml import YAML

    out = {}
    for lock in sorted(repo.rglob("dvc.lock")):
        for name, entry in (YAML(typ="safe").load(lock.read_text()) or {}).get("stages", {}).items():
            timed = ("runs/", "grades/", "integrity/")
            deps = [d for d in entry.get("deps", []) if not d["path"].startswith(timed)]
            key = f"{lock.parent.name}:{name}"
            out[key] = {"cmd": entry["cmd"], "deps": deps, "params": entry.get("params")}
    return out


def _mlebench(repo: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess:
    return _run([sys.executable, "-m", "mlebench.cli", "run", *args], repo, env=env)


def _assert_repro_is_a_no_op(repo: Path) -> None:
    out = _run(["dvc", "repro"], repo).stdout
    assert "Running stage" not in out, out


@pytest.fixture(scope="module")
def sequential(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = copy_checkout(tmp_path_factory.mktemp("sequential"))
    plan_and_commit(repo, GRID)
    _run(["dvc", "repro"], repo)
    return repo


def _scheduled(tmp: Path, *args: str) -> Path:
    repo = copy_checkout(tmp)
    plan_and_commit(repo, GRID)
    out = _mlebench(repo, *args)
    assert "failed" not in out.stderr, out.stderr
    return repo


def _same_as_sequential(repo: Path, sequential: Path) -> None:
    assert _results(repo) == _results(sequential) and len(_results(repo)) == 4
    assert _locks(repo) == _locks(sequential)
    _assert_repro_is_a_no_op(repo)


def test_local_pool_gives_what_sequential_repro_gives(tmp_path: Path, sequential: Path) -> None:
    repo = _scheduled(tmp_path, "--executor", "local", "--jobs", "4", "executor.cpus=4")
    _same_as_sequential(repo, sequential)
    run = json.loads((repo / "runs" / "dummy" / "titanic-lite" / "0" / "run.json").read_text())
    assert run["executor"]["executor"] == "local" and run["executor"]["settings"]["slots"] == 4
    events = [json.loads(line) for line in (repo / "runs/.scheduler/events.jsonl").read_text().splitlines()]
    # 4 data stages, 4 runs, 4 grades, 4 integrity checks, the report
    assert Counter(e["event"] for e in events)["recorded"] == 17


def _slurm_up() -> bool:
    return bool(shutil.which("sinfo")) and subprocess.run(["sinfo"], capture_output=True).returncode == 0


@pytest.mark.slurm
def test_slurm_gives_what_sequential_repro_gives(tmp_path: Path, sequential: Path) -> None:
    if not _slurm_up():
        if CI:
            pytest.fail("no Slurm cluster answers: run environment/start_slurm.sh")
        pytest.skip("no Slurm cluster (environment/start_slurm.sh starts one)")
    repo = _scheduled(tmp_path, "--executor", "slurm", "--jobs", "4")
    _same_as_sequential(repo, sequential)
    run = json.loads((repo / "runs" / "baseline" / "titanic-lite" / "1" / "run.json").read_text())
    assert run["executor"]["executor"] == "slurm" and run["executor"]["slurm_job_id"]


@pytest.mark.ray
def test_ray_gives_what_sequential_repro_gives(tmp_path: Path, sequential: Path) -> None:
    pytest.importorskip("ray") if not CI else None
    address = os.environ.get("MLEBENCH_RAY_ADDRESS", "")
    repo = _scheduled(tmp_path, "--executor", "ray", "--jobs", "4", f"executor.address={address}")
    _same_as_sequential(repo, sequential)
    run = json.loads((repo / "runs" / "dummy" / "titanic-lite" / "1" / "run.json").read_text())
    assert run["executor"]["executor"] == "ray"


def test_kill_9_then_rerun_loses_nothing_and_runs_nothing_twice(tmp_path: Path) -> None:
    repo = copy_checkout(tmp_path)
    add_sleep_agent(repo, 3)
    seeds = "[0,1,2,3,4,5]"
    plan_and_commit(repo, [*GRID[:2], f"seeds={seeds}", "agent=[sleep]", "runner=local", "hardware.gpus=1"])
    env = {"MLEBENCH_GPUS": "0,1", "PATH": f"{Path(sys.executable).parent}:{os.environ['PATH']}"}
    args = [sys.executable, "-m", "mlebench.cli", "run", "--jobs", "3", "executor.cpus=8", "--no-progress"]
    log = repo / "runs" / ".scheduler" / "events.jsonl"

    def events() -> list[dict]:
        return (
            [json.loads(x) for x in log.read_text().splitlines() if x.endswith("}")] if log.exists() else []
        )

    proc = subprocess.Popen(args, cwd=repo, env={**os.environ, **env}, stdout=subprocess.DEVNULL)
    deadline = time.monotonic() + 600
    while sum(e["event"] == "recorded" and "grade-" in e["stage"] for e in events()) < 2:
        assert proc.poll() is None and time.monotonic() < deadline, "the scheduler ended early"
        time.sleep(0.2)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    before = {e["stage"] for e in events() if e["event"] == "recorded"}
    _run(args, repo, env=env)
    after = events()
    assert len({e["session"] for e in after}) == 2
    # no cell ran twice: nothing recorded before the kill was dispatched again
    redispatched = {e["stage"] for e in after if e["event"] == "dispatched"} & before
    by_stage = Counter(e["stage"] for e in after if e["event"] == "dispatched")
    again = {s for s in redispatched if by_stage[s] > 1}
    assert not again, again
    finished_ok = Counter(e["stage"] for e in after if e["event"] == "finished" and e["status"] == "ok")
    assert max(finished_ok.values()) == 1, finished_ok
    # no finished cell lost: every cell graded, nothing stale, the lock files parse
    assert len(list((repo / "grades").rglob("*.json"))) == 6
    assert {r[0] for r in _results(repo).values()} == {"ok"}
    _assert_repro_is_a_no_op(repo)
    # GPUs: each run had one device of the fake inventory, in its lineage; overlapping runs never shared one
    spans = []
    for seed in range(6):
        run = json.loads((repo / "runs" / "sleep" / "titanic-lite" / str(seed) / "run.json").read_text())
        assert run["executor"]["gpus"] in (["0"], ["1"]), run["executor"]
        spans.append((run["started_at"], run["finished_at"], run["executor"]["gpus"][0]))
    for i, (s1, e1, g1) in enumerate(spans):
        for s2, e2, g2 in spans[i + 1 :]:
            assert not (s1 < e2 and s2 < e1) or g1 != g2, spans
