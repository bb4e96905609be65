"""Warm starts: a stage command forked from the zygote behaves as the same command started cold."""

from __future__ import annotations

import os
import signal
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from mlebench.scheduling.executors.base import _alive, kill_group, run_command
from mlebench.scheduling.executors.warm import WarmStarter, warm_parts

STAGE = """
import json, os, sys
from pkgx import helper

def main():
    seen = {"argv": sys.argv[1:], "cwd": os.getcwd(), "dispatch": os.environ.get("MLEBENCH_EXECUTOR")}
    print(json.dumps({**seen, "helper": helper.VALUE, "name": __name__}), flush=True)
    if "--fail" in sys.argv:
        raise RuntimeError("the stage failed")
    if "--exit" in sys.argv:
        raise SystemExit(int(sys.argv[-1]))
    if "--spawn" in sys.argv:
        import subprocess
        child = subprocess.Popen(["sleep", "300"], start_new_session=True)
        print(f"child {child.pid}", flush=True)
        time.sleep(300)
    return 0

import time
if __name__ == "__main__":
    raise SystemExit(main())
"""


@pytest.fixture
def root(tmp_path, monkeypatch):
    """Make a checkout-like folder with a stage module, and ``python`` on PATH this interpreter."""
    (tmp_path / "pkgx").mkdir()
    (tmp_path / "pkgx" / "__init__.py").write_text("")
    (tmp_path / "pkgx" / "stage.py").write_text(STAGE)
    (tmp_path / "pkgx" / "helper.py").write_text("VALUE = 1\n")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    (bin_dir / "python").symlink_to(sys.executable)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}")
    # the zygote imports mlebench from the checkout under test, whatever its working folder
    monkeypatch.setenv("PYTHONPATH", str(Path(__file__).resolve().parents[1]))
    return tmp_path


def _run_both(root: Path, cmd: str, env: dict[str, str]) -> tuple[dict, str, dict, str]:
    warm = WarmStarter(root)
    try:
        hot = warm.run(cmd, str(root), str(root / "warm.log"), env)
    finally:
        warm.close()
    cold = run_command(cmd, str(root), str(root / "cold.log"), env)
    return hot, (root / "warm.log").read_text(), cold, (root / "cold.log").read_text()


def _body(log: str) -> str:
    return "\n".join(line for line in log.splitlines()[1:] if not line.startswith('  File "<frozen'))


def _in_thread(warm: WarmStarter, cmd: str, root: Path, log: str, **kwargs) -> tuple[threading.Thread, dict]:
    """Start ``warm.run(cmd)`` in a thread of its own; the dict gets its outcome once it returns."""
    result: dict = {}
    thread = threading.Thread(target=lambda: result.update(warm.run(cmd, str(root), log, {}, **kwargs) or {}))
    thread.start()
    return thread, result


def _spawned_child(log: Path) -> int:
    """Wait for the ``--spawn`` stage to log the pid of the process it started in its own session."""
    deadline = time.monotonic() + 60
    while "child " not in (log.read_text() if log.exists() else "") and time.monotonic() < deadline:
        time.sleep(0.1)
    return int(log.read_text().split("child ")[1].split()[0])


@pytest.mark.parametrize(
    "args, code",
    [("--competition a --seed 1", 0), ("--exit 3", 3), ("--fail", 1)],
    ids=["ok", "exit-status", "exception"],
)
def test_warm_job_prints_and_exits_as_the_cold_command(root, args, code):
    env = {"MLEBENCH_EXECUTOR": '{"stage": "x"}'}
    hot, hot_log, cold, cold_log = _run_both(root, f"python -m pkgx.stage {args}", env)
    assert hot is not None, "the command should have run warm"
    assert hot["returncode"] == cold["returncode"] == code
    assert "(warm)" in hot_log.splitlines()[0]
    first = hot_log.splitlines()[1]
    assert first == cold_log.splitlines()[1]
    assert f'"cwd": "{root}"' in first and '"name": "__main__"' in first and '"dispatch": "{' in first
    if code == 1:  # the traceback of an uncaught exception, as the interpreter prints it
        assert hot_log.splitlines()[-1] == cold_log.splitlines()[-1] == "RuntimeError: the stage failed"


def test_an_edited_import_runs_the_new_code(root):
    warm = WarmStarter(root)
    try:
        first = warm.run("python -m pkgx.stage", str(root), str(root / "1.log"), {})
        (root / "pkgx" / "helper.py").write_text("VALUE = 22222\n")  # a new size: seen within one mtime tick
        second = warm.run("python -m pkgx.stage", str(root), str(root / "2.log"), {})
    finally:
        warm.close()
    assert first and second and first["returncode"] == second["returncode"] == 0
    assert '"helper": 1' in (root / "1.log").read_text()
    assert '"helper": 22222' in (root / "2.log").read_text()


@pytest.mark.parametrize(
    "cmd, env",
    [
        ("python -m pkgx.stage > out.txt", {}),  # shell syntax
        ("cd x && python -m pkgx.stage", {}),
        ("python -c 'print(1)'", {}),
        ("python -m pkgx.stage", {"OMP_NUM_THREADS": "1"}),  # a variable a module may read at import
    ],
)
def test_what_may_not_run_warm(root, cmd, env):
    assert warm_parts(cmd, str(root), env, root) is None
    assert warm_parts("python -m pkgx.stage --seed 1", str(root), {"CUDA_VISIBLE_DEVICES": "0"}, root) == (
        "pkgx.stage",
        ["--seed", "1"],
    )


def test_a_module_that_starts_a_thread_at_import_runs_cold(root):
    (root / "pkgx" / "threaded.py").write_text(
        "import threading, time\nthreading.Thread(target=time.sleep, args=(60,), daemon=True).start()\n"
        "if __name__ == '__main__':\n    print('ran')\n"
    )
    (root / "pkgx" / "loud.py").write_text(
        "print('printed at import')\nif __name__ == '__main__':\n    print('ran')\n"
    )
    warm = WarmStarter(root)
    try:
        assert warm.run("python -m pkgx.stage", str(root), str(root / "s.log"), {}) is not None
        zygote = warm._zygote
        assert warm.run("python -m pkgx.threaded", str(root), str(root / "t.log"), {}) is None
        # decided in a forked probe: the zygote itself never imported it, so it still serves warm jobs
        assert warm.run("python -m pkgx.loud", str(root), str(root / "l.log"), {}) is not None
        assert warm._zygote is zygote
        assert (root / "l.log").read_text().splitlines()[1:] == ["printed at import", "ran"]
    finally:
        warm.close()


def test_warm_up_imports_before_the_first_job(root):
    warm = WarmStarter(root)
    try:
        warm.warm_up(
            [("python -m pkgx.stage --seed 1", str(root)), ("python -m pkgx.stage --seed 2", str(root))]
        )
        deadline = time.monotonic() + 30
        while warm._zygote is None and time.monotonic() < deadline:
            time.sleep(0.05)
        zygote = warm._zygote
        result = warm.run("python -m pkgx.stage", str(root), str(root / "w.log"), {})
        assert result is not None and result["returncode"] == 0 and warm._zygote is zygote
    finally:
        warm.close()


def test_killing_the_job_group_kills_what_it_started_in_its_own_session(root):
    warm = WarmStarter(root)
    started: list[int] = []
    log = root / "spawn.log"
    thread, result = _in_thread(warm, "python -m pkgx.stage --spawn", root, str(log), on_start=started.append)
    child = _spawned_child(log)
    assert started and _alive(child)
    kill_group(started[0])
    thread.join(30)
    warm.close()
    assert result["returncode"] == -signal.SIGTERM  # as a cold command under its reaper ends
    deadline = time.monotonic() + 10
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _alive(child)


def test_jobs_die_with_the_process_that_started_the_zygote(root, tmp_path):
    import subprocess

    driver = tmp_path / "driver.py"
    driver.write_text(
        textwrap.dedent(
            f"""
            import sys, threading, time
            from pathlib import Path
            from mlebench.scheduling.executors.warm import WarmStarter
            warm = WarmStarter(Path({str(root)!r}))
            threading.Thread(target=warm.run, args=("python -m pkgx.stage --spawn", {str(root)!r},
                             {str(root / "orphan.log")!r}, {{}}), daemon=True).start()
            time.sleep(300)
            """
        )
    )
    proc = subprocess.Popen([sys.executable, str(driver)], cwd=root)
    child = _spawned_child(root / "orphan.log")
    proc.kill()  # kill -9 of the scheduler
    proc.wait()
    deadline = time.monotonic() + 20
    while _alive(child) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _alive(child)


def test_the_zygote_outlives_the_job_thread_that_started_it(root):
    """A process's death signal follows the thread that created it: a job's thread must not be that."""
    warm = WarmStarter(root)
    try:
        thread, first = _in_thread(warm, "python -m pkgx.stage", root, str(root / "a.log"))
        thread.join(60)
        zygote = warm._zygote
        time.sleep(0.5)  # a zygote killed with its thread would be gone by now
        second = warm.run("python -m pkgx.stage", str(root), str(root / "b.log"), {})
        assert first["returncode"] == 0 and second is not None and second["returncode"] == 0
        assert warm._zygote is zygote and zygote.proc.poll() is None
    finally:
        warm.close()


def test_an_edit_while_a_job_runs_leaves_that_job_running(root):
    """A zygote that finds a changed file takes no new job but outlives the ones it runs."""
    (root / "pkgx" / "slow.py").write_text(
        "import time\nfrom pkgx import helper\nif __name__ == '__main__':\n    time.sleep(3)\n"
        "    print('slow done', helper.VALUE)\n"
    )
    warm = WarmStarter(root)
    try:
        thread, slow = _in_thread(warm, "python -m pkgx.slow", root, str(root / "slow.log"))
        time.sleep(1.5)
        (root / "pkgx" / "helper.py").write_text("VALUE = 333\n")
        other = warm.run("python -m pkgx.stage", str(root), str(root / "other.log"), {})
        thread.join(60)
    finally:
        warm.close()
    assert (
        other is not None and other["returncode"] == 0 and '"helper": 333' in (root / "other.log").read_text()
    )
    assert slow["returncode"] == 0 and "slow done 1" in (root / "slow.log").read_text()
