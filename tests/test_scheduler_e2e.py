"""End to end: `mlebench run` over a reduced grid in temporary copies, against sequential `dvc repro`.

The reduced grid keeps the default grid's shape (both agents, several seeds; one competition). Covers: the
same statuses and scores as `dvc repro` through the local pool, Slurm and Ray (the real engines, started by
environment/start_slurm.sh and Ray's own local cluster), and Ray with workers in checkouts of their own (each
stage handed back through DVC's run-cache); `dvc repro` afterwards runs nothing; kill -9 of the
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


RAN_HOOK = """\
import os, sys
_log, _argv = os.environ.get("MLEBENCH_TEST_RAN"), getattr(sys, "orig_argv", [])
if _log and len(_argv) > 2 and _argv[1] == "-m" and _argv[2].startswith("stages."):
    with open(_log, "a") as _fh:
        _fh.write(os.getcwd() + "\\t" + " ".join(_argv[2:]) + "\\n")
"""


@pytest.mark.ray
def test_ray_without_a_shared_disk_hands_each_stage_back_through_the_run_cache(
    tmp_path: Path, sequential: Path
) -> None:
    """Workers run stages in checkouts of their own; the coordinator restores each from DVC's run-cache.

    The data stages are recorded here first (`dvc repro`), so the coordinator has to push their outputs
    before the runs and grades that need them are dispatched.
    """
    import yaml

    pytest.importorskip("ray") if not CI else None
    repo = copy_checkout(tmp_path)
    plan_and_commit(repo, GRID)
    hook, ran, workers = tmp_path / "hook", tmp_path / "ran.tsv", tmp_path / "workers"
    hook.mkdir()
    (hook / "sitecustomize.py").write_text(RAN_HOOK)  # logs every `python -m stages.*`, wherever it runs
    env = {"PYTHONPATH": str(hook), "MLEBENCH_TEST_RAN": str(ran)}
    data = [f"pipelines/titanic-lite/dvc.yaml:{s}" for s in ("fetch", "prepare", "selfcheck", "audit")]
    _run(["dvc", "repro", "--single-item", *data], repo, env=env)
    args = [f"executor.worker_checkout={workers}", "executor.num_cpus=4", "executor.stage_slots=4"]
    out = _mlebench(repo, "--executor", "ray", "--jobs", "4", "executor.shared_disk=false", *args, env=env)
    assert "failed" not in out.stderr, out.stderr
    _same_as_sequential(repo, sequential)
    assert "up to date" in _run(["dvc", "status"], repo).stdout
    # each stage's command ran exactly once: the data stages here before the run, the others on workers
    lines = [line.split("\t") for line in ran.read_text().splitlines()]
    where = {cmd: Path(cwd).resolve() for cwd, cmd in lines}
    locks = [yaml.safe_load(lock.read_text())["stages"] for lock in repo.rglob("dvc.lock")]
    stages = {name: entry for lock in locks for name, entry in lock.items()}
    assert len(lines) == len(where) == len(stages) == 17, lines
    cwd = {name: where[entry["cmd"].removeprefix("python -m ")] for name, entry in stages.items()}
    shipped = {name: stages[name] for name, folder in cwd.items() if folder != repo.resolve()}
    assert set(stages) - set(shipped) == {"fetch", "prepare", "selfcheck", "audit"}
    assert all(cwd[name].is_relative_to(workers.resolve()) for name in shipped), cwd
    # the coordinator holds the bytes each worker made: its outs are the stage's one run-cache entry's
    remote = tmp_path / "remote"
    entries = [yaml.safe_load(p.read_text()) for p in (remote / "storage" / "runs").rglob("*") if p.is_file()]
    assert sorted(e["cmd"] for e in entries) == sorted(e["cmd"] for e in shipped.values())
    by_cmd = {e["cmd"]: e for e in entries}
    for name, entry in shipped.items():
        mine = {o["path"]: o["md5"] for o in entry["outs"]}
        assert mine == {o["path"]: o["md5"] for o in by_cmd[entry["cmd"]]["outs"]}, name
    # the private answers went (from here, for the grading workers) to their own remote only
    private = next(o["md5"] for o in stages["prepare"]["outs"] if o["path"].endswith("/private"))
    assert (remote / "answers/files/md5" / private[:2] / private[2:]).is_file()
    assert not (remote / "storage/files/md5" / private[:2] / private[2:]).exists()
    run = json.loads((repo / "runs" / "baseline" / "titanic-lite" / "0" / "run.json").read_text())
    assert run["executor"]["executor"] == "ray" and run["executor"]["settings"]["shared_disk"] is False


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
