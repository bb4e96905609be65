"""The resident stage server: `python -m <package>.<module>` run by a warm copy, the same seen from outside.

A package of its own (``fakestages``, written here) stands for :mod:`stages`: its module prints where it ran
(pid, parent, working folder, arguments, ``DVC_STAGE``) and then exits, fails, or sleeps as asked. The real
``stages`` package goes through the same server at the end. The sockets live in a short folder of the
test's own (``XDG_RUNTIME_DIR``), and its servers are killed after each test.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import psutil
import pytest
from resident_server import resident_runtime

ROOT = Path(__file__).resolve().parents[1]
INIT = """import sys
if sys.argv[:1] == ["-m"]:
    from mlebench.resident import hand_off
    code = hand_off(__name__)
    if code is not None:
        import os
        os._exit(code)
"""
PROBE = """import json, os, sys, time
mode = sys.argv[1]
print(json.dumps({"pid": os.getpid(), "ppid": os.getppid(), "cwd": os.getcwd(), "argv": sys.argv[1:],
                  "stage": os.environ.get("DVC_STAGE"), "main": __name__}), flush=True)
if mode == "exit":
    sys.exit(int(sys.argv[2]))
if mode == "fail":
    print("to stderr", file=sys.stderr)
    raise RuntimeError("boom")
if mode == "sleep":
    open(sys.argv[2], "w").write(str(os.getpid()))
    time.sleep(120)
"""

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the server is Linux's")


@pytest.fixture
def where(tmp_path: Path) -> Iterator[tuple[Path, dict[str, str]]]:
    """Yield a folder holding ``fakestages`` and the environment its commands run with; kill servers after."""
    (tmp_path / "fakestages").mkdir()
    (tmp_path / "fakestages" / "__init__.py").write_text(INIT)
    (tmp_path / "fakestages" / "probe.py").write_text(PROBE)
    env = {k: v for k, v in os.environ.items() if k not in {"MLEBENCH_EXECUTOR", "DVC_STAGE"}}
    with resident_runtime() as runtime:
        env.update(XDG_RUNTIME_DIR=str(runtime), MLEBENCH_RESIDENT_STAGES="1")
        yield tmp_path, env


def _probe(
    folder: Path, env: dict[str, str], *args: str, stage: str = "s"
) -> tuple[dict, subprocess.CompletedProcess]:
    done = subprocess.run(
        [sys.executable, "-m", "fakestages.probe", *args],
        cwd=folder,
        env={**env, "DVC_STAGE": stage},
        capture_output=True,
        text=True,
        timeout=120,
    )
    return json.loads(done.stdout.splitlines()[0]), done


def _server(env: dict[str, str]) -> tuple[int, Path]:
    """Wait for the server to listen; its pid and log."""
    folder = Path(env["XDG_RUNTIME_DIR"]) / "mlebench-stages"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        for sock in folder.glob("*.sock"):
            for proc in psutil.process_iter(["cmdline"]):
                if str(sock) in (proc.info["cmdline"] or []):
                    return proc.pid, Path(f"{sock}.log")
        time.sleep(0.1)
    raise AssertionError(f"no server listens in {folder}: {sorted(os.listdir(folder))}")


def _warm(folder: Path, env: dict[str, str]) -> tuple[int, Path]:
    """Run the probe once (it starts the server and runs in its own process); the server's pid and log."""
    first, done = _probe(folder, env, "exit", "0")
    assert done.returncode == 0 and first["main"] == "__main__", done.stderr
    return _server(env)


def test_a_command_runs_in_the_server_with_its_arguments_folder_stage_and_streams(where) -> None:
    folder, env = where
    first, done = _probe(folder, env, "exit", "0", stage="first")
    assert done.returncode == 0
    server, log = _server(env)
    seen, done = _probe(folder, env, "exit", "0", "--flag", stage="second")
    assert done.returncode == 0, done.stderr
    assert seen["ppid"] == server and seen["pid"] != first["pid"], (seen, server)
    assert seen["cwd"] == str(folder) and seen["argv"] == ["exit", "0", "--flag"]
    assert seen["stage"] == "second" and seen["main"] == "__main__"  # DVC's per-stage variable, its own
    assert f"runs pid {seen['pid']}" in log.read_text() and "warm: fakestages.probe" in log.read_text()


def test_exit_status_and_an_uncaught_exception_come_back_as_they_would(where) -> None:
    folder, env = where
    server, _ = _warm(folder, env)
    seen, done = _probe(folder, env, "exit", "3")
    assert seen["ppid"] == server and done.returncode == 3
    seen, done = _probe(folder, env, "fail")
    assert seen["ppid"] == server and done.returncode == 1
    assert "to stderr" in done.stderr and "RuntimeError: boom" in done.stderr


def _sleeping(folder: Path, env: dict[str, str], pid_file: Path) -> tuple[subprocess.Popen, int]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "fakestages.probe", "sleep", str(pid_file)],
        cwd=folder,
        env=env,
        stdout=subprocess.PIPE,
        text=True,
    )
    deadline = time.monotonic() + 60
    while not (pid_file.is_file() and pid_file.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    return proc, int(pid_file.read_text())


def _gone(pid: int, within: float = 10.0) -> bool:
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if not psutil.pid_exists(pid) or psutil.Process(pid).status() == psutil.STATUS_ZOMBIE:
            return True
        time.sleep(0.05)
    return False


def test_a_signal_to_the_stage_process_reaches_its_copy_and_a_killed_one_takes_it_along(
    where, tmp_path
) -> None:
    folder, env = where
    server, _ = _warm(folder, env)
    proc, job = _sleeping(folder, env, tmp_path / "one.pid")
    assert job != proc.pid and psutil.Process(job).ppid() == server
    proc.send_signal(signal.SIGTERM)
    assert proc.wait(timeout=30) == -signal.SIGTERM  # the copy died of it, and so did its stage process
    assert _gone(job)
    proc, job = _sleeping(folder, env, tmp_path / "two.pid")
    assert job != proc.pid
    proc.kill()  # kill -9: nothing is passed on, the server sees the connection close
    proc.wait(timeout=30)
    assert _gone(job)
    proc, job = _sleeping(folder, env, tmp_path / "three.pid")
    os.kill(job, signal.SIGKILL)  # the copy killed (the OOM killer, say): its stage process ends the same way
    assert proc.wait(timeout=30) == -signal.SIGKILL


def test_an_edited_source_is_never_run_stale(where) -> None:
    folder, env = where
    server, log = _warm(folder, env)
    probe = folder / "fakestages" / "probe.py"
    probe.write_text(PROBE.replace('"main": __name__', '"main": "edited"'))
    seen, done = _probe(folder, env, "exit", "0")
    assert seen["main"] == "edited" and seen["ppid"] != server, seen  # run in its own process, edited
    assert "a file it imported has changed" in log.read_text()
    assert _gone(server)  # nothing left to run: it exits
    _probe(folder, env, "exit", "0")  # finds no server: runs in its own process and starts a new one
    renewed, _ = _server(env)
    seen, done = _probe(folder, env, "exit", "0")
    assert seen["main"] == "edited" and seen["ppid"] == renewed != server


def test_turned_off_or_under_the_scheduler_a_command_runs_in_its_own_process(where) -> None:
    folder, env = where
    server, _ = _warm(folder, env)
    for extra in ({"MLEBENCH_RESIDENT_STAGES": "0"}, {"MLEBENCH_EXECUTOR": "{}"}):
        seen, done = _probe(folder, {**env, **extra}, "exit", "0")
        assert done.returncode == 0 and seen["ppid"] != server


@pytest.mark.skipif(os.geteuid() != 0 or shutil.which("unshare") is None, reason="unshare -m needs root")
def test_a_process_in_another_mount_namespace_is_refused(where) -> None:
    folder, env = where
    server, log = _warm(folder, env)
    done = subprocess.run(
        ["unshare", "--mount", sys.executable, "-m", "fakestages.probe", "exit", "0"],
        cwd=folder,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    seen = json.loads(done.stdout.splitlines()[0])
    assert done.returncode == 0 and seen["ppid"] != server
    assert "other namespaces: mnt" in log.read_text()


def test_the_stages_package_runs_in_the_server(where) -> None:
    _, env = where

    def grade(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            [sys.executable, "-m", "stages.grade", *args],
            cwd=ROOT,
            env=env,
            capture_output=True,
            text=True,
            timeout=120,
        )

    assert grade("--help").returncode == 0
    _, log = _server(env)
    done = grade("--no-such-flag")
    assert done.returncode == 2 and "usage: grade.py" in done.stderr, done.stderr
    assert "runs pid" in log.read_text() and "stages.grade --no-such-flag" in log.read_text()


def test_the_server_is_not_part_of_any_stage_s_lineage() -> None:
    from mlebench.planning.plan import stage_code
    from mlebench_spec.sources import closure, imported_modules

    assert "mlebench.resident" in imported_modules(ROOT / "stages" / "__init__.py", ROOT)  # layers see it
    for kind in ("run_agent", "grade", "integrity"):
        code = stage_code(kind, ROOT)
        assert "stages/__init__.py" in code and f"stages/{kind}.py" in code
        assert "mlebench/resident.py" not in code and "mlebench/execution/forking.py" not in code
    assert "mlebench/resident.py" not in closure(["stages/__init__.py"], ROOT)
