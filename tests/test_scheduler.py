"""The scheduler's parts without DVC: the local executor's accounting, atomic lock writes, the event log."""

from __future__ import annotations

import time
from collections import Counter
from pathlib import Path

import pytest

from mlebench.data.dvc_internals import atomic_lock_writes
from mlebench.data.dvc_internals import libyaml_dumps as _libyaml_dumps
from mlebench.scheduling.events import EventLog, read_events, unrecorded
from mlebench.scheduling.executors.base import Job, Resources
from mlebench.scheduling.executors.local import LocalExecutor, LocalSettings, gpu_inventory
from mlebench.scheduling.executors.registry import EXECUTORS, get_executor
from mlebench_spec.errors import ConfigError


def _drain(executor: LocalExecutor, jobs: list[Job]) -> list[tuple[float, float, tuple[str, ...]]]:
    """Run every job, submitting as room frees; return (start, end, devices) per job.

    Start and end are the times each job's own command wrote (its shell's first and last act), not when
    this loop submitted or collected it: a slot freed by a job that ended can be taken before the loop has
    collected that job, so the loop's own times overlap under load where the jobs never did.
    """
    queue, devices = list(jobs), {}
    while queue or executor.running():
        for job in list(queue):
            if executor.submit(job):
                queue.remove(job)
        for done in executor.wait(0.05):
            assert done.returncode == 0, done
            devices[done.job.key] = done.devices
    spans = []
    for job in jobs:
        folder = Path(job.cwd)
        start, end = (float((folder / f"{job.key}.{edge}").read_text()) for edge in ("start", "end"))
        spans.append((start, end, devices[job.key]))
    return spans


def _jobs(tmp_path: Path, n: int, resources: Resources) -> list[Job]:
    return [
        Job(
            f"j{i}",
            1,
            f"date +%s.%N > j{i}.start; sleep 0.4; date +%s.%N > j{i}.end",
            str(tmp_path),
            str(tmp_path / f"j{i}.log"),
            resources,
        )
        for i in range(n)
    ]


def test_two_jobs_never_share_a_gpu(tmp_path: Path) -> None:
    executor = LocalExecutor(LocalSettings(slots=4, cpus=8, memory="8g", gpus=["0", "1"]), tmp_path)
    spans = _drain(executor, _jobs(tmp_path, 5, Resources(1, 2**20, gpus=1)))
    assert all(len(d) == 1 for _, _, d in spans)
    for i, (s1, e1, d1) in enumerate(spans):
        for s2, e2, d2 in spans[i + 1 :]:
            if s1 < e2 and s2 < e1:  # overlapping in time
                assert set(d1).isdisjoint(d2), spans
    assert {d for _, _, ds in spans for d in ds} == {"0", "1"}


def test_gpu_sharing_is_opt_in_and_bounded(tmp_path: Path) -> None:
    executor = LocalExecutor(LocalSettings(slots=8, cpus=8, memory="8g", gpus=["0", "1"]), tmp_path)
    spans = _drain(executor, _jobs(tmp_path, 6, Resources(1, 2**20, gpus=1, gpu_sharing=2)))
    peaks = []
    for start, _, _ in spans:
        held = Counter(d for s, e, ds in spans if s <= start < e for d in ds)
        peaks.append(max(held.values()))
    assert max(peaks) == 2, spans  # two jobs did share a GPU, and never more than two
    # an exclusive job never joins a shared GPU, and nothing joins an exclusive one
    executor = LocalExecutor(LocalSettings(slots=8, cpus=8, memory="8g", gpus=["0"]), tmp_path)
    res_shared, res_alone = Resources(1, 1, gpus=1, gpu_sharing=4), Resources(1, 1, gpus=1)
    assert executor.submit(Job("shared", 1, "sleep 0.3", str(tmp_path), str(tmp_path / "s.log"), res_shared))
    assert not executor.submit(Job("alone", 1, "true", str(tmp_path), str(tmp_path / "a.log"), res_alone))
    while executor.running():
        executor.wait(0.1)
    assert executor.submit(Job("alone", 1, "sleep 0.3", str(tmp_path), str(tmp_path / "a.log"), res_alone))
    assert not executor.submit(Job("s2", 1, "true", str(tmp_path), str(tmp_path / "s2.log"), res_shared))


def test_gpu_sharing_serialises_only_when_a_profile_opts_in() -> None:
    from mlebench_spec.params import Hardware

    base = dict(name="g", cpus=1, memory="1g", shm_size="1g", pids=64, gpus=1, time_limit_secs=60)
    assert "gpu_sharing" not in Hardware(**base).model_dump()
    assert Hardware(**base, gpu_sharing=2).model_dump()["gpu_sharing"] == 2
    with pytest.raises(ValueError, match="gpu_sharing"):
        Hardware(**base, gpu_sharing=0)


def test_memory_is_never_oversubscribed(tmp_path: Path) -> None:
    executor = LocalExecutor(LocalSettings(slots=8, cpus=8, memory="2g", gpus=[]), tmp_path)
    spans = _drain(executor, _jobs(tmp_path, 4, Resources(1, 2**30)))
    for start, _, _ in spans:
        assert sum(1 for s, e, _ in spans if s <= start < e) <= 2, spans


def test_a_job_bigger_than_the_host_is_refused_up_front(tmp_path: Path) -> None:
    executor = LocalExecutor(LocalSettings(cpus=2, memory="1g", gpus=[]), tmp_path)
    assert "GPUs" in (executor.problem(Resources(1, 1, gpus=1)) or "")
    assert "CPUs" in (executor.problem(Resources(4, 1)) or "")
    assert executor.problem(Resources(1, 2**20)) is None


def test_a_killed_worker_is_an_infra_failure_and_an_exit_code_is_not(tmp_path: Path) -> None:
    executor = LocalExecutor(LocalSettings(cpus=2, memory="1g", gpus=[]), tmp_path)
    res = Resources(0.5, 1)
    assert executor.submit(Job("killed", 1, "kill -9 $$", str(tmp_path), str(tmp_path / "k.log"), res))
    assert executor.submit(Job("failed", 1, "exit 3", str(tmp_path), str(tmp_path / "f.log"), res))
    done = {}
    while len(done) < 2:
        done.update({d.job.key: d for d in executor.wait(1)})
    assert done["killed"].infra and done["killed"].returncode is None
    assert done["failed"].returncode == 3 and not done["failed"].infra


def test_a_wait_returns_when_a_job_starts_or_on_wake_not_at_its_timeout(tmp_path: Path) -> None:
    import threading

    executor = LocalExecutor(LocalSettings(cpus=2, memory="1g", gpus=[], warm_start=False), tmp_path)
    job = Job("slow", 1, "sleep 60", str(tmp_path), str(tmp_path / "s.log"), Resources(0.5, 1))
    try:
        t0 = time.monotonic()
        assert executor.submit(job)
        while not executor.job_id("slow"):  # each wait ends when the job starts, not after 60 s
            assert executor.wait(60) == [] and time.monotonic() - t0 < 30
        threading.Timer(0.2, executor.wake).start()
        assert executor.wait(60) == [] and time.monotonic() - t0 < 30  # nothing ended: an empty answer
        assert executor.running() == 1
    finally:
        executor.shutdown()


def test_fake_gpu_inventory_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MLEBENCH_GPUS", "3, 5")
    monkeypatch.setenv("PATH", "/nonexistent")  # no nvidia-smi
    assert gpu_inventory("auto") == ["3", "5"]
    assert gpu_inventory(["7"]) == ["7"]


def test_lock_writes_are_atomic(tmp_path: Path) -> None:
    from dvc.utils.serialize import dump_yaml

    lock = tmp_path / "dvc.lock"
    lock.write_text("schema: '2.0'\nstages: {}\n")

    class Boom(Exception):
        pass

    def half(data: object, stream: object) -> None:
        stream.write("schema: '2.0'\nsta")  # type: ignore[attr-defined]
        raise Boom

    with atomic_lock_writes(), pytest.raises(Boom):
        from dvc.utils.serialize import _common

        _common._dump_data(lock, {"x": 1}, dumper=half)
    assert lock.read_text() == "schema: '2.0'\nstages: {}\n"
    assert [p.name for p in tmp_path.iterdir()] == ["dvc.lock"]
    with atomic_lock_writes():
        dump_yaml(lock, {"schema": "2.0", "stages": {"a": {"cmd": "x"}}})
    assert "cmd: x" in lock.read_text()


def test_run_cache_entries_are_written_fast_and_read_back_by_dvc(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from collections import OrderedDict

    from dvc.schema import COMPILED_LOCK_FILE_STAGE_SCHEMA
    from dvc.utils.serialize import _yaml, dump_yaml, load_yaml

    dep = OrderedDict(path="data/é x.csv", hash="md5", md5="0" * 32, size=12)
    entry = OrderedDict(
        cmd="python -m stages.grade: --x 'y'", deps=[dep], outs=[{"path": "o", "isexec": True}]
    )
    with _libyaml_dumps():  # data libyaml cannot hold keeps DVC's own dumper
        dump_yaml(tmp_path / "odd", {"when": {1, 2}})
    assert load_yaml(tmp_path / "odd") == {"when": {1, 2}}

    def ruamel(*_args: object) -> None:
        raise AssertionError("DVC's ruamel dumper was used")

    monkeypatch.setattr(_yaml, "_dump", ruamel)
    with _libyaml_dumps():  # libyaml writes it; DVC's own loader and schema read it back
        dump_yaml(tmp_path / "entry", entry)
    assert load_yaml(tmp_path / "entry") == COMPILED_LOCK_FILE_STAGE_SCHEMA(entry) == entry


def test_event_log_finds_finished_but_unrecorded_stages(tmp_path: Path) -> None:
    log = EventLog(tmp_path / "events.jsonl", "s1")
    log.emit("dispatched", stage="a", inputs={"x": 1})
    log.emit("finished", stage="a", status="ok")
    log.emit("recorded", stage="a")
    log.emit("dispatched", stage="b", inputs={"y": 2})
    log.emit("finished", stage="b", status="ok")
    log.emit("dispatched", stage="c", inputs={})
    log.close()
    with (tmp_path / "events.jsonl").open("a") as fh:
        fh.write('{"event": "finished", "stage": "c", "sta')  # torn by a kill
    assert unrecorded(read_events(tmp_path / "events.jsonl")) == {"b": {"y": 2}}


def test_registry_names_every_executor_and_rejects_unknown_ones(tmp_path: Path) -> None:
    assert list(EXECUTORS) == ["local", "slurm", "ray"]
    with pytest.raises(ConfigError, match="known: local, slurm, ray"):
        get_executor("kubernetes", {}, tmp_path)
    with pytest.raises(ConfigError, match="slots"):
        get_executor("local", {"slots": 0}, tmp_path)


def test_the_ray_executor_without_its_extra_names_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import sys

    monkeypatch.setitem(sys.modules, "ray", None)  # what an install without the `ray` extra gives
    with pytest.raises(ConfigError, match=r"pip install -e '\.\[ray\]'"):
        get_executor("ray", {}, tmp_path)


def test_lock_writer_writes_what_dvc_reads_and_keeps_the_other_entries(tmp_path: Path) -> None:
    from collections import OrderedDict

    from dvc.utils.serialize import dump_yaml, parse_yaml

    from mlebench.scheduling.lockfiles import LockFiles

    lock = tmp_path / "dvc.lock"
    entry = {
        "cmd": "python -m stages.fetch --competition a b c d e f g h i j k l m n o p q r s t u v w x y z"
    }
    deps = [{"path": "a.py", "hash": "md5", "md5": "0" * 32, "size": 3}]
    dump_yaml(lock, {"schema": "2.0", "stages": {"fetch": {**entry, "deps": deps}, "grade": {"cmd": "g"}}})
    writer = LockFiles()
    writer.update(lock, {"fetch": OrderedDict(cmd="new", deps=deps), "report": {"cmd": "r", "params": {}}})
    writer.update(lock, {"report": {"cmd": "r2"}})  # from the kept blocks, without re-reading
    want = {"fetch": {"cmd": "new", "deps": deps}, "grade": {"cmd": "g"}, "report": {"cmd": "r2"}}
    data = parse_yaml(lock.read_text(), str(lock))
    assert data == {"schema": "2.0", "stages": want} and list(data["stages"]) == list(want)
    lock.write_text("schema: '2.0'\nstages:\n  grade: {cmd: edited}\n")  # changed under the writer
    writer.update(lock, {"report": {"cmd": "r3"}})
    assert parse_yaml(lock.read_text(), str(lock))["stages"] == {
        "grade": {"cmd": "edited"},
        "report": {"cmd": "r3"},
    }
    with pytest.raises(TypeError, match="YAML cannot hold"):
        writer.update(lock, {"x": {"cmd": object()}})
    assert parse_yaml(lock.read_text(), str(lock))["stages"]["report"] == {"cmd": "r3"}
    assert sorted(p.name for p in tmp_path.iterdir()) == ["dvc.lock"]
    fresh = tmp_path / "new" / "dvc.lock"
    fresh.parent.mkdir()
    LockFiles().update(fresh, {"a": {"cmd": "x"}})
    assert fresh.read_text().startswith("schema: '2.0'\nstages:\n  a:\n")


def _gone(pid: int, within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except OSError:
            return True
        if state == "Z":
            return True
        time.sleep(0.1)
    return False


def test_nothing_a_stage_started_outlives_it_or_a_killed_scheduler(tmp_path: Path) -> None:
    import subprocess
    import sys

    from mlebench.scheduling.executors.base import run_command

    # a process the command put in a session of its own (as the local runner does with an agent)
    cmd = "setsid sleep 300 & echo $! > orphan.pid"
    assert run_command(cmd, str(tmp_path), str(tmp_path / "a.log"), {})["returncode"] == 0
    assert _gone(int((tmp_path / "orphan.pid").read_text()))
    # the scheduler killed with -9 while the command runs: its command and the orphan go too
    (tmp_path / "orphan.pid").unlink()
    script = (
        "from mlebench.scheduling.executors.base import run_command; "
        f"run_command('setsid sleep 300 & echo $! > orphan.pid; sleep 300', {str(tmp_path)!r}, "
        f"{str(tmp_path / 'b.log')!r}, {{}})"
    )
    coordinator = subprocess.Popen([sys.executable, "-c", script], cwd=Path(__file__).resolve().parents[1])
    deadline = time.monotonic() + 60
    while not (tmp_path / "orphan.pid").is_file() or not (tmp_path / "orphan.pid").read_text().strip():
        assert time.monotonic() < deadline and coordinator.poll() is None
        time.sleep(0.1)
    coordinator.kill()
    coordinator.wait()
    assert _gone(int((tmp_path / "orphan.pid").read_text()))
    # a command killed by a signal still reads as killed (negative), not as failed
    assert run_command("kill -9 $$", str(tmp_path), str(tmp_path / "c.log"), {})["returncode"] == -9


def test_a_killed_runs_leftover_jobs_are_found_and_only_ours_are_stopped(tmp_path: Path) -> None:
    import subprocess
    import sys

    from mlebench.scheduling.events import unfinished
    from mlebench.scheduling.executors.base import REAPER

    log = EventLog(tmp_path / "events.jsonl", "s1")
    for stage, job in (("a", "11"), ("b", "12"), ("c", "13")):
        log.emit("dispatched", stage=stage, inputs={})
        log.emit("started", stage=stage, job_id=job)
    log.emit("finished", stage="a", status="ok", job_id="11")
    log.emit("dispatched", stage="c", inputs={})  # retried: no job yet
    log.emit("dispatched", stage="d", inputs={})
    log.emit("started", stage="d", job_id="14")
    log.emit("skipped", stage="d", job_id="14", reason="left running by a killed run")  # stopped already
    log.close()
    assert unfinished(read_events(tmp_path / "events.jsonl")) == {"b": "12"}
    # the local pool stops a reaper of this checkout by pid, and leaves a stranger's pid alone
    executor = LocalExecutor(LocalSettings(cpus=1, memory="1g", gpus=[]), tmp_path)
    ours = subprocess.Popen([sys.executable, str(REAPER), "sleep 300"], start_new_session=True)
    stranger = subprocess.Popen(["sleep", "300"], start_new_session=True)
    time.sleep(0.5)
    try:
        assert executor.stop_leftovers([str(ours.pid), str(stranger.pid)]) == [str(ours.pid)]
        assert ours.wait(timeout=10) != 0 and stranger.poll() is None
    finally:
        stranger.kill()
        ours.kill()


def test_a_shared_dep_is_hashed_once_across_lock_holds_and_again_after_an_edit(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import subprocess
    import sys

    from dvc.dependency.base import Dependency

    from mlebench.scheduling.dvc_stages import Pipelines

    subprocess.run([sys.executable, "-m", "dvc", "init", "--no-scm", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "shared.txt").write_text("one\n")
    (tmp_path / "dvc.yaml").write_text(
        "stages:\n"
        + "".join(
            f"  s{k}:\n    cmd: cp shared.txt o{k}\n    deps: [shared.txt]\n    outs: [o{k}]\n"
            for k in (1, 2)
        )
    )
    built: list[str] = []
    original = Dependency._build

    def counting(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        built.append(str(args[1]))
        return original(self, *args, **kwargs)

    monkeypatch.setattr(Dependency, "_build", counting)
    pipelines = Pipelines(tmp_path)
    try:
        addresses = [s.address for s in pipelines.stages()]
        first = pipelines.begin(addresses, check=False)
        assert sum(p.endswith("shared.txt") for p in built) == 1  # two stages, one hash
        assert first[addresses[0]] == first[addresses[1]] | {"cmd": first[addresses[0]]["cmd"]}
        assert pipelines.inputs(addresses[0]) == first[addresses[0]]  # a new hold, the same file: no hash
        assert sum(p.endswith("shared.txt") for p in built) == 1
        (tmp_path / "shared.txt").write_text("two, edited\n")
        again = pipelines.inputs(addresses[0])
        assert sum(p.endswith("shared.txt") for p in built) == 2  # edited: hashed again
        assert again["shared.txt"] != first[addresses[0]]["shared.txt"]
    finally:
        pipelines.close()


def test_whether_git_tracks_an_output_is_answered_as_git_answers_from_one_read_of_its_index(
    tmp_path: Path,
) -> None:
    import subprocess

    from dvc.repo import Repo

    from mlebench.data.dvc_internals import tracked_once as _tracked_once

    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    for name in ("code/a.py", "code/deep/b.py", "README.md"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x\n")
    subprocess.run(["git", "add", "code", "README.md"], cwd=tmp_path, check=True)
    (tmp_path / "runs").mkdir()
    asked = ["code", "code/deep", "code/deep/b.py", "cod", "code/a", "README.md", "runs", "runs/x", "."]
    repo = Repo.init(str(tmp_path))
    scm = repo.scm
    try:
        want = [scm.is_tracked(str(tmp_path / p)) for p in asked]
        seen: dict = {}
        with _tracked_once(scm, seen):
            assert [scm.is_tracked(str(tmp_path / p)) for p in asked] == want
            assert len(seen) == 1  # one read of the index for every question
            (tmp_path / "runs/x").write_text("y\n")
            subprocess.run(["git", "add", "runs/x"], cwd=tmp_path, check=True)
            assert scm.is_tracked(str(tmp_path / "runs")) and scm.is_tracked(str(tmp_path / "runs/x"))
        assert "is_tracked" not in vars(scm)  # git's own method again after the block
        assert want == [True, True, True, False, False, True, False, False, False]
    finally:
        repo.close()


def test_a_path_lock_file_a_kill_left_empty_is_started_afresh_and_rewritten_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import json
    import subprocess
    import sys

    from mlebench.scheduling.dvc_stages import Pipelines

    subprocess.run([sys.executable, "-m", "dvc", "init", "--no-scm", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "in.txt").write_text("x\n")
    stage = "stages:\n  s:\n    cmd: cp in.txt o\n    deps: [in.txt]\n    outs: [o]\n"
    (tmp_path / "dvc.yaml").write_text(stage)
    rwlock = tmp_path / ".dvc" / "tmp" / "rwlock"
    rwlock.parent.mkdir(exist_ok=True)

    def dvc_status() -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, "-m", "dvc", "status"], cwd=tmp_path, capture_output=True, text=True
        )

    rwlock.write_text("")  # DVC truncated it, then its writer was killed
    assert "corrupted" in dvc_status().stderr  # plain DVC stops on it
    pipelines = Pipelines(tmp_path)
    try:
        (address,) = [s.address for s in pipelines.stages()]
        assert pipelines.changed([address]) == {address: True}
        held = json.loads(rwlock.read_text())  # read and released: it parses again and holds nothing
        assert not any(held.get(mode) for mode in ("read", "write")), held
        assert dvc_status().returncode == 0

        # a write that dies part-way leaves the previous file whole (what a kill mid-write leaves)
        before = rwlock.read_text()

        def dies(obj: object, fh: object) -> None:
            fh.write('{"read": {"in.txt": [{"pid"')  # type: ignore[attr-defined]
            raise KeyboardInterrupt

        monkeypatch.setattr(json, "dump", dies)
        with pytest.raises(KeyboardInterrupt):
            pipelines.changed([address])
        monkeypatch.undo()
        assert rwlock.read_text() == before
        assert sorted(p.name for p in rwlock.parent.iterdir() if p.name.startswith(".rwlock")) == []
    finally:
        pipelines.close()
    assert dvc_status().returncode == 0


def test_a_reproduce_stage_takes_an_agent_slot_under_the_hardware_profile() -> None:
    """Issue 42: re-running a cell's kept code runs agent code, so it is scheduled as an agent run is."""
    from mlebench.scheduling.dvc_stages import PlannedStage
    from mlebench.scheduling.executors.base import Settings
    from mlebench.scheduling.scheduler import AGENT_KINDS, Scheduler
    from mlebench_spec.identity import StageIdentity
    from mlebench_spec.params import Hardware

    hardware = Hardware(name="cpu", cpus=2, memory="4g", shm_size="1g", pids=64, gpus=0, time_limit_secs=900)
    scheduler = Scheduler.__new__(Scheduler)  # only the settings and the profile: no DVC repository needed
    scheduler.settings, scheduler.hardware = Settings(), hardware

    def stage(kind: str) -> PlannedStage:
        return PlannedStage(f"p:{kind}", kind, StageIdentity(kind, "c", "a", 0), "true", Path("."), ())

    agent = Resources(2.0, 4 << 30, 0, 900, 1)
    assert scheduler._resources(stage("reproduce")) == scheduler._resources(stage("run_agent")) == agent
    assert scheduler._resources(stage("grade")) == Resources(1.0, 1 << 30, 0, 3600)
    assert AGENT_KINDS == {"run_agent", "reproduce"}


def test_an_output_dvc_cannot_record_fails_its_stage_not_the_batch_nor_the_scheduler(tmp_path: Path) -> None:
    """Issue 51, finding 1: a name DVC cannot encode, or a tree too deep for it, in one stage's output.

    Before: the stage's DVC error left the batch empty and ``record`` raised ``ValueError: max_workers must
    be greater than 0`` from the lock writer, so the scheduler crashed (and crashed again on every resume).
    Here the hostile stage is refused with the reason and the ordinary stage beside it is recorded; a batch
    of hostile stages alone records nothing and raises nothing.
    """
    import os
    import subprocess
    import sys

    from mlebench.scheduling.dvc_stages import Pipelines
    from mlebench.scheduling.lockfiles import write_all_atomically

    write_all_atomically({})  # an empty batch writes nothing (it raised ValueError)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run([sys.executable, "-m", "dvc", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "dvc.yaml").write_text(
        "stages:\n"
        "  good:\n    cmd: mkdir -p g && echo ok > g/x\n    outs: [g]\n"
        "  bad:\n    cmd: 'true'\n    outs: [b]\n"
        "  deep:\n    cmd: 'true'\n    outs: [d]\n"
    )
    pipelines = Pipelines(tmp_path)
    try:
        by_name = {s.name: s.address for s in pipelines.stages()}
        begun = pipelines.begin(list(by_name.values()), check=False)
        (tmp_path / "g").mkdir()
        (tmp_path / "g" / "x").write_text("ok\n")
        (tmp_path / "b").mkdir()
        with open(os.fsencode(tmp_path / "b") + b"/bad-\xff.log", "wb") as fh:
            fh.write(b"x")
        fd = os.open(tmp_path, os.O_RDONLY)
        os.mkdir("d", dir_fd=fd)
        for _ in range(1200):  # DVC walks outputs recursively
            nxt = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = nxt
            os.mkdir("d", dir_fd=fd)
        os.close(fd)
        hostile = {a: begun[a] for name, a in by_name.items() if name != "good"}
        problems = pipelines.record(hostile)  # a batch no stage of which can be recorded
        assert set(problems) == set(hostile) and all(problems.values()), problems
        assert not (tmp_path / "dvc.lock").exists()
        problems = pipelines.record({by_name["good"]: begun[by_name["good"]]})
        assert problems == {by_name["good"]: ""}
        assert "good:" in (tmp_path / "dvc.lock").read_text()
        # the next run begins the hostile stages again: their deep leftover outputs are removed, no error
        again = pipelines.begin([by_name["deep"], by_name["bad"]], check=False)
        assert set(again) == {by_name["deep"], by_name["bad"]}
        assert not (tmp_path / "d").exists() and not (tmp_path / "b").exists()
    finally:
        pipelines.close()
        from mlebench.execution.collector import remove_tree

        remove_tree(tmp_path / "d")


def test_a_stage_whose_recording_keeps_killing_the_scheduler_is_given_up_not_replayed(tmp_path: Path) -> None:
    """Issue 51, finding 1: every restart replayed the poisoned stage from the event log and crashed again.

    Each recovery is logged (``recovering``) before it is tried; after :data:`RECOVERY_TRIES` tries without
    an outcome the stage is no longer recovered but named by ``poisoned`` (the scheduler logs it unrecorded,
    and it runs again).
    """
    from mlebench.scheduling.events import RECOVERY_TRIES, poisoned

    path = tmp_path / "events.jsonl"
    log = EventLog(path, "s1")
    log.emit("dispatched", stage="a", inputs={"x": 1})
    log.emit("finished", stage="a", status="ok")
    log.emit("dispatched", stage="b", inputs={"y": 2})
    log.emit("finished", stage="b", status="ok")
    for tries in range(RECOVERY_TRIES):
        assert unrecorded(read_events(path)) == {"a": {"x": 1}, "b": {"y": 2}}, tries
        log.emit("recovering", stage="a")  # and the process dies recording it
    assert unrecorded(read_events(path)) == {"b": {"y": 2}}
    assert poisoned(read_events(path)) == ["a"]
    log.emit("unrecorded", stage="a", reason="given up", recovered=True)
    log.emit("recorded", stage="b", recovered=True)
    log.emit("dispatched", stage="a", inputs={"x": 1})  # it runs again, and is recoverable again
    log.emit("finished", stage="a", status="ok")
    log.close()
    assert unrecorded(read_events(path)) == {"a": {"x": 1}} and poisoned(read_events(path)) == []
