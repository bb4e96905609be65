"""Warm starts for the local executor: stage commands forked from a process that imported them already.

A stage command such as ``python -m stages.run_agent --competition X --agent Y --seed 0`` spends most of
its CPU importing (pydantic, the declarations, the runners): about 0.3 of its 0.45 CPU-s on this project's
machines. Ten of them starting at once on two cores is seconds of every wave of runs. A *zygote*, one
long-lived child of the scheduler (``python -m mlebench.scheduling.executors.warm``), imports each stage
module once (``import stages.run_agent``: its top level, not its ``main``) and forks one process per job,
which runs the module as ``python -m`` would (``runpy``, as ``__main__``, the job's argv, working folder,
environment, log and niceness). The forked job is supervised exactly as :mod:`reaper` supervises a shell
command: a subreaper in a session of its own, which kills what is left under it, dies with the zygote
(which dies with the scheduler) and exits as the command did, so killing and retrying are unchanged.

A command runs warm only when all of these hold, else it runs as before (:func:`base.run_command`):

- it is exactly ``python -m <module> <args>``: no shell syntax, ``python`` on the job's ``PATH`` is this
  interpreter, and its folder is the zygote's (the module is found on the same ``sys.path``);
- its environment differs from the scheduler's only in :data:`DISPATCH_VARIABLES`, which stages read
  when they run, never when they are imported;
- importing the module left the zygote with a single thread: a fork copies only the calling thread, so a
  module that starts threads at import (a BLAS pool, say) runs cold;
- no file the zygote imported has changed since (size or mtime): an edited source would otherwise run
  stale code under a lineage that names the new one. A zygote that finds a change takes no more jobs (it
  exits once those it runs have ended), and the job goes to a new one.
"""

from __future__ import annotations

import contextlib
import itertools
import json
import os
import queue
import select
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import threading
import time
import traceback
from collections import Counter
from functools import partial
from pathlib import Path
from typing import Any

from mlebench.execution.dispatch_env import EXECUTOR_ENV
from mlebench.execution.forking import changed, load_module, remember, run_as_main, threads
from mlebench.scheduling.executors import reaper

DISPATCH_VARIABLES = frozenset({EXECUTOR_ENV, "CUDA_VISIBLE_DEVICES"})
"""The variables a job's environment may add to the scheduler's and still run warm."""

_MODULE = "mlebench.scheduling.executors.warm"


def warm_parts(cmd: str, cwd: str, env: dict[str, str], root: Path) -> tuple[str, list[str]] | None:
    """Return ``(module, args)`` when ``cmd`` may run warm (see the module docstring), else None."""
    try:
        parts = shlex.split(cmd)
    except ValueError:
        return None
    if len(parts) < 3 or parts[1] != "-m" or shlex.join(parts) != cmd.strip():
        return None
    if Path(cwd).resolve() != root.resolve():
        return None
    if set(env) - DISPATCH_VARIABLES:
        return None
    found = shutil.which(parts[0], path=os.environ.get("PATH", os.defpath))
    if found is None or os.path.realpath(found) != os.path.realpath(sys.executable):
        return None
    return parts[2], parts[3:]


class _Zygote:
    """One running zygote: its pipes, and a reader thread that routes its replies to the waiting jobs."""

    def __init__(self, root: Path) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, "-m", _MODULE],
            cwd=root,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            preexec_fn=partial(reaper.die_with_parent, signal.SIGKILL),
        )
        self._replies: dict[int, queue.Queue[dict[str, Any]]] = {}
        self._exits: dict[int, queue.Queue[int]] = {}
        self._lock = threading.Lock()
        self._ids = itertools.count()
        self.alive = True
        threading.Thread(target=self._read, daemon=True).start()

    def start(self, request: dict[str, Any]) -> dict[str, Any]:
        """Send one job; return the zygote's reply: ``pid``, ``cold``, ``stale`` or ``gone``.

        ``gone`` is ``"before"`` when the zygote was gone before it got the request (nothing ran), else
        ``"after"``: it died before replying, so the job may have started (and died with it).
        """
        reply: queue.Queue[dict[str, Any]] = queue.Queue()
        with self._lock:
            if not self.alive:
                return {"gone": "before"}
            key = next(self._ids)
            self._replies[key] = reply
            try:
                assert self.proc.stdin is not None
                self.proc.stdin.write((json.dumps({**request, "id": key}) + "\n").encode())
                self.proc.stdin.flush()
            except OSError:
                self._replies.pop(key, None)
                return {"gone": "before"}
        return reply.get()  # the zygote always replies, or its reader says it is gone

    def exit_code(self, pid: int) -> int:
        """Wait for the forked job ``pid`` to end; its exit code (negative: the signal that killed it)."""
        with self._lock:
            waiting = self._exits.setdefault(pid, queue.Queue())
        code = waiting.get()
        with self._lock:
            self._exits.pop(pid, None)
        return code

    def close(self) -> None:
        """Let the zygote go (it exits when its input closes); running jobs are killed by their groups."""
        with contextlib.suppress(OSError):
            if self.proc.stdin is not None:
                self.proc.stdin.close()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            message = json.loads(line)
            with self._lock:
                if "id" in message:
                    if "pid" in message:  # before the reply, so its exit cannot arrive unrouted
                        self._exits.setdefault(message["pid"], queue.Queue())
                    waiting = self._replies.pop(message["id"], None)
                    if waiting is not None:
                        waiting.put(message)
                else:
                    self._exits.setdefault(message["pid"], queue.Queue()).put(message["code"])
        with self._lock:  # the zygote is gone: its jobs died with it (their death signal)
            self.alive = False
            for waiting in self._replies.values():
                waiting.put({"gone": "after"})
            for exits in self._exits.values():
                if exits.empty():
                    exits.put(-signal.SIGTERM)
            self._replies.clear()
        self.proc.wait()


class WarmStarter:
    """The local executor's side: run a job warm through the zygote, or say it cannot (None)."""

    def __init__(self, root: Path) -> None:
        self.root = root.resolve()
        self._zygote: _Zygote | None = None
        self._cold: set[str] = set()
        self._preloading: set[str] = set()
        self._lock = threading.Lock()
        # A zygote dies with the thread that started it (PR_SET_PDEATHSIG follows the creating thread, not
        # the process), so one long-lived thread starts them all, never a job's thread, which ends.
        self._spawns: queue.Queue[queue.Queue[_Zygote]] = queue.Queue()
        threading.Thread(target=self._spawner, daemon=True).start()

    def run(
        self, cmd: str, cwd: str, log: str, env: dict[str, str], on_start: Any = None, nice: int = 0
    ) -> dict[str, Any] | None:
        """Run ``cmd`` warm as :func:`base.run_command` would run it; None when it has to run cold."""
        parts = warm_parts(cmd, cwd, env, self.root)
        if parts is None:
            return None
        module, args = parts
        if module in self._cold:
            return None
        request = {"module": module, "args": args, "cwd": cwd, "env": {**os.environ, **env}, "log": log}
        request["nice"] = nice
        request["header"] = f"{socket.gethostname()}: {cmd} (warm)"  # the line run_command writes first
        Path(log).parent.mkdir(parents=True, exist_ok=True)
        t0 = time.monotonic()
        for _ in range(2):  # a stale zygote takes no more jobs: the second try goes to a new one
            zygote = self._current()
            reply = zygote.start(request)
            if "pid" in reply:
                break
            if "cold" in reply:
                self._cold.add(module)
                return None
            self._retire(zygote)
            if reply.get("gone") == "after":  # it may have started and died with the zygote: a lost worker
                return _ended(-signal.SIGTERM, 0, t0)
        else:
            return None
        pid = int(reply["pid"])
        if on_start is not None:
            on_start(pid)
        return _ended(zygote.exit_code(pid), pid, t0)

    def warm_up(self, commands: list[tuple[str, str]]) -> None:
        """Have the zygote import, in the background, the modules of these ``(cmd, cwd)`` commands.

        The modules most commands run come first (a grid's per-cell stages before its per-competition ones),
        so the first wave of runs waits for its own module only.
        """
        found = (warm_parts(cmd, cwd, {}, self.root) for cmd, cwd in commands)
        self.preload([m for m, _ in Counter(parts[0] for parts in found if parts).most_common()])

    def preload(self, modules: list[str]) -> None:
        """Have the zygote import these modules, in this order, in the background (each once)."""
        modules = [m for m in dict.fromkeys(modules) if m not in self._preloading]  # asked for already
        self._preloading.update(modules)

        def load() -> None:
            zygote = self._current()
            for module in modules:
                if zygote.start({"module": module, "preload": True}).get("kind") == "cold":
                    self._cold.add(module)

        if modules:
            threading.Thread(target=load, daemon=True).start()

    def close(self) -> None:
        """Stop the zygote (jobs still running are the executor's to kill, by their groups)."""
        with self._lock:
            if self._zygote is not None:
                self._zygote.close()
                self._zygote = None

    def _current(self) -> _Zygote:
        with self._lock:
            if self._zygote is None or not self._zygote.alive:
                made: queue.Queue[_Zygote] = queue.Queue()
                self._spawns.put(made)
                self._zygote = made.get()
            return self._zygote

    def _spawner(self) -> None:
        while True:
            self._spawns.get().put(_Zygote(self.root))

    def _retire(self, zygote: _Zygote) -> None:
        with self._lock:
            if self._zygote is zygote:
                zygote.close()
                self._zygote = None


def _ended(code: int, pid: int, t0: float) -> dict[str, Any]:
    """How a warm job went, as :func:`base.run_command` reports a cold one."""
    return {
        "returncode": code,
        "host": socket.gethostname(),
        "pid": pid,
        "seconds": round(time.monotonic() - t0, 3),
    }


def is_warm_job(cmdline: list[bytes]) -> bool:
    """Whether a process's ``/proc/PID/cmdline`` is a zygote's (a warm job keeps its parent's)."""
    return cmdline[1:3] == [b"-m", _MODULE.encode()]


# ---------------------------------------------------------------------------------------------- the zygote


def serve() -> None:
    """Serve jobs: import each module on first use, fork a supervised job per request, report the ends.

    The zygote exits once its input is closed (or it found an imported file changed, or a module left
    threads) and every job it forked has ended: its jobs die with it, so it outlives them.
    """
    parent = os.getppid()
    reaper.die_with_parent(signal.SIGKILL)
    if os.getppid() != parent:
        return
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the scheduler's to handle
    global _REPLIES  # noqa: PLW0603 - set once: what a module prints at import must not reach the pipe
    _REPLIES = os.dup(1)
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    imported: dict[str, tuple[int, int]] = {}
    kinds: dict[str, str] = {}  # module -> "warm" | "cold"
    buffer = b""
    closed = retiring = False
    while True:
        readable, _, _ = select.select([] if closed else [0], [], [], 0.05)
        jobs = _report_exits()
        if (closed or retiring) and not jobs:
            return
        if not readable:
            continue
        chunk = os.read(0, 1 << 16)
        closed = not chunk
        buffer += chunk
        stale: bool | None = None  # asked once per read: a wave of jobs arrives in one chunk
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            request = json.loads(line)
            module = request["module"]
            if retiring:
                _reply({"id": request["id"], "stale": True})
                continue
            if module not in kinds:
                kinds[module] = load_module(module)
                remember(imported)
            if request.get("preload"):
                _reply({"id": request["id"], "kind": kinds[module]})
                continue
            if kinds[module] == "cold":
                _reply({"id": request["id"], "cold": True})
                retiring = threads() > 1  # that import left threads running: later forks would lose them
                continue
            if stale is None:
                stale = changed(imported)
            if stale:
                _reply({"id": request["id"], "stale": True})
                retiring = True
                continue
            pid = os.fork()
            if pid == 0:
                _job(request)
            _reply({"id": request["id"], "pid": pid})


_REPLIES = 1
"""The zygote's reply pipe (its original standard output)."""


def _reply(message: dict[str, Any]) -> None:
    os.write(_REPLIES, (json.dumps(message) + "\n").encode())


def _report_exits() -> bool:
    """Report the jobs that ended; whether any is still running."""
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return False
        if pid == 0:
            return True
        _reply({"pid": pid, "code": os.waitstatus_to_exitcode(status)})


def _job(request: dict[str, Any]) -> None:
    """In the forked job: its own session, log and niceness, then supervised as :mod:`reaper` does."""
    code = 1
    try:
        os.setsid()
        null = os.open(os.devnull, os.O_RDONLY)
        log = os.open(request["log"], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        os.write(log, f"[{time.strftime('%H:%M:%S')}] {request['header']}\n".encode())
        os.dup2(null, 0)
        os.dup2(log, 1)
        os.dup2(log, 2)
        os.closerange(3, 1 << 16)
        if request["nice"] > 0:
            os.nice(request["nice"])
        code = reaper.supervise(lambda: _Forked(_fork_stage(request)))
    except BaseException:  # noqa: BLE001 - reported in the job's log, as a failed command
        traceback.print_exc()
    finally:
        with contextlib.suppress(Exception):
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code if code >= 0 else 1)


def _fork_stage(request: dict[str, Any]) -> int:
    """Fork the stage itself: ``python -m module args`` in this interpreter, as ``__main__``."""
    pid = os.fork()
    if pid:
        return pid
    run_as_main(request)


class _Forked:
    """The forked stage, with the part of ``subprocess.Popen`` that :func:`reaper.supervise` uses."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                pid, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped by the sweep after it ended; as Popen does
                self.returncode = 0
            else:
                if pid:
                    self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        deadline = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if deadline is not None and time.monotonic() >= deadline:
                raise subprocess.TimeoutExpired(str(self.pid), timeout or 0)
            time.sleep(0.02)
        assert self.returncode is not None
        return self.returncode


if __name__ == "__main__":
    serve()
