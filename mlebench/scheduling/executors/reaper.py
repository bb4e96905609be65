"""Run one stage command so that nothing it started outlives it or the worker that started it.

``python reaper.py CMD`` (this file, run as a script) runs ``CMD`` with a shell and waits for it. It is a
child subreaper (``PR_SET_CHILD_SUBREAPER``): a process the command starts in a session of its own (the
local runner starts each agent so, to kill its group at the time limit) is reparented here, not to init,
when the command dies. It gets SIGTERM when its own parent dies (``PR_SET_PDEATHSIG``, so a ``kill -9`` of
the scheduler or a Ray worker reaches it) and on SIGTERM, or once the command ended, it kills every process
left under it. It then exits as the command did (re-raising a killing signal), so the executor still tells
a killed command from a failed one.

A killed command cannot clean up after itself: when it was killed (or this reaper was), the reaper then
runs the container runners' sweep (``python -m mlebench.execution.sweep``: Docker's engine and the user's
Podman), which removes the agent containers, egress proxies, relays, sandboxes, networks and socket volumes
whose owner process is gone (bounded in time; a
machine without an engine is a no-op).
"""

from __future__ import annotations

import ctypes
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

_PR_SET_PDEATHSIG = 1
_PR_SET_CHILD_SUBREAPER = 36


def children(pid: int) -> list[int]:
    """Return the pids whose parent is ``pid`` (from /proc)."""
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int(entry.joinpath("stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    out.append(int(entry.name))
            except (OSError, ValueError, IndexError):
                continue
    return out


def reap_all(deadline_secs: float = 10.0) -> None:
    """Kill every process under this one (their groups first), until none is left or the deadline passes."""
    me, mine = os.getpid(), os.getpgrp()
    deadline = time.monotonic() + deadline_secs
    while time.monotonic() < deadline:
        left = children(me)
        if not left:
            return
        for pid in left:
            try:
                group = os.getpgid(pid)
                if group != mine:  # a session of its own: all of it; never this process's own group
                    os.killpg(group, signal.SIGKILL)
                os.kill(pid, signal.SIGKILL)  # what it started is reparented here and killed next round
            except (ProcessLookupError, PermissionError):
                pass
        try:
            while os.waitpid(-1, os.WNOHANG)[0]:
                pass
        except ChildProcessError:
            pass
        time.sleep(0.05)


def sweep_containers(timeout_secs: float = 60.0) -> None:
    """Remove what the killed command left in the Docker engine (see the module); never raise."""
    try:
        subprocess.run(
            [sys.executable, "-m", "mlebench.execution.sweep"],
            stdin=subprocess.DEVNULL,
            timeout=timeout_secs,
            check=False,
            start_new_session=True,  # outlives a SIGKILL of this reaper's group once its grace runs out
        )
    except (OSError, subprocess.SubprocessError):
        pass


def die_with_parent(sig: int) -> None:
    """Have the kernel send ``sig`` to this process when the thread that started it ends."""
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_PDEATHSIG, sig)


def supervise(start: Callable[[], Any]) -> int:
    """Start the command (``start()`` returns a Popen-like handle) as the module docstring says.

    Returns the command's exit status, or re-raises the signal that killed it (or this process).
    """
    parent = os.getppid()
    stop: list[int] = []
    signal.signal(signal.SIGTERM, lambda signum, _frame: stop.append(signum))
    signal.signal(signal.SIGINT, lambda signum, _frame: stop.append(signum))
    ctypes.CDLL("libc.so.6", use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1)
    die_with_parent(signal.SIGTERM)
    if os.getppid() != parent:  # the parent died before the death signal was armed
        return -signal.SIGTERM
    proc = start()
    while proc.poll() is None and not stop:
        try:
            proc.wait(timeout=0.2)
        except subprocess.TimeoutExpired:
            continue
    reap_all()
    proc.wait()
    code = proc.returncode if not stop else -signal.SIGTERM
    if code < 0:
        sweep_containers()
    if code < 0:
        if -code != signal.SIGKILL:
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    return code


def main(argv: list[str]) -> int:
    """Run ``argv[0]`` (a shell command) as the module docstring says; return or re-raise its ending."""
    return supervise(lambda: subprocess.Popen(argv[0], shell=True, stdin=subprocess.DEVNULL))


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
