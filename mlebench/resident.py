"""A resident stage server: ``python -m stages.<kind>`` handed to an interpreter that imported it already.

``dvc repro`` starts every stage as a new process: README command 1 runs 243 of them, and each spends about
0.3 s of CPU importing pydantic, pandas, the declarations and the runners before its first line of work. The
first stage process of a run starts a *resident server* (``python -m mlebench.resident``) in the background
and runs as before; every later one hands its command to the server, which forks a copy of itself that has
everything imported and runs the module there, as ``python -m`` would (``runpy``, as ``__main__``, with the
stage's arguments, working folder, environment and standard streams). The stage process waits for that copy
and exits as it did; the signals it gets (Ctrl-C from DVC) are passed on, and a stage process that dies
(``kill -9``) takes the copy with it. DVC sees the same command, the same output and the same exit status,
so every stage's lineage is unchanged: only the imports are shared.

A stage runs in the server only when all of these hold, else it runs in its own process as before:

- it was started exactly as ``python -m stages.<kind> ...`` on Linux, not by the scheduler (whose local
  executor has a warm start of its own, :mod:`mlebench.scheduling.executors.warm`), and
  ``MLEBENCH_RESIDENT_STAGES`` is not ``0``;
- a server started with the same interpreter, flags, module path and environment (DVC's ``DVC_STAGE``
  aside, which no module reads at import) answers on its socket, in a folder only this user can open
  (``$XDG_RUNTIME_DIR/mlebench-stages``, else ``/tmp/mlebench-stages-<uid>``);
- no file the server imported has changed since (size or mtime): a server that finds one changed serves no
  more stages and exits once those it runs have ended, so an edited source never runs stale;
- the stage process is this user's and sees the server's mount, PID, network and user namespaces: a process
  in an agent's sandbox or container can never have a stage run for it outside.

A server with nothing to do for :data:`IDLE_SECS` exits.
"""

from __future__ import annotations

import contextlib
import fcntl
import gc
import hashlib
import importlib
import json
import os
import select
import shlex
import signal
import socket
import stat
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

SWITCH = "MLEBENCH_RESIDENT_STAGES"
"""Set to ``0`` to run every stage in its own process."""
IDLE_SECS = 120.0
"""How long a server with no stage running and none asked for stays."""
PER_STAGE = frozenset({"DVC_STAGE"})
"""What DVC sets per stage: not part of the server's key (the stage's own environment still has it)."""
NAMESPACES = ("mnt", "pid", "net", "user")
SOCKET_PATH_BYTES = 108
"""Linux's bound on a UNIX socket's path (``sun_path``, its final NUL included)."""
LOG_BYTES = 1 << 20
"""A server's log (``<socket>.log``: one line per stage it ran or refused) starts over past this size."""
_HEADER = struct.Struct("!I")


# ----------------------------------------------------------------------------------------- the stage's side


def hand_off(package: str) -> int | None:
    """Run this process's ``python -m <package>.<module>`` in the resident server; its exit status, else None.

    None: run it here (no server yet, whose start this call begins; not such a command; turned off).
    Called while ``python -m`` imports ``package`` (:mod:`stages`), before the module itself is imported.
    """
    from mlebench.execution.dispatch_env import EXECUTOR_ENV

    if os.environ.get(SWITCH) == "0" or EXECUTOR_ENV in os.environ or not sys.platform.startswith("linux"):
        return None
    try:
        with open("/proc/self/cmdline", "rb") as fh:
            parts = [p.decode() for p in fh.read().split(b"\0")[:-1]]
        if len(parts) < 3 or parts[1] != "-m" or not parts[2].startswith(package + "."):
            return None
        path = socket_path(package)
        if path is None:
            return None
        request = {"module": parts[2], "args": parts[3:], "cwd": os.getcwd(), "env": dict(os.environ)}
        conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    except (OSError, ValueError):  # nothing was sent: the stage runs here, as it always could
        return None
    try:
        conn.connect(str(path))
    except OSError:
        conn.close()
        _start_server(path, package)
        return None
    with conn:
        return _run_there(conn, request)


def server_key(package: str) -> str:
    """Return what a server must share with a stage process to run it: interpreter, flags, path, env."""
    env = sorted((k, v) for k, v in os.environ.items() if k not in PER_STAGE)
    what = [package, sys.executable, list(sys.flags), sys.path, env, os.getuid()]
    return hashlib.sha256(json.dumps(what).encode()).hexdigest()[:32]


def socket_path(package: str) -> Path | None:
    """Return the socket of this process's server, in a folder only this user can open (None: none)."""
    uid = os.getuid()
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    folder = Path(runtime) / "mlebench-stages" if runtime else Path(f"/tmp/mlebench-stages-{uid}")
    with contextlib.suppress(OSError):
        folder.mkdir(mode=0o700)
    try:
        st = os.lstat(folder)
    except OSError:
        return None
    if not stat.S_ISDIR(st.st_mode) or st.st_uid != uid or st.st_mode & 0o077:
        return None  # not ours alone: someone else could answer on it
    path = folder / f"{server_key(package)}.sock"
    return path if len(os.fsencode(path)) < SOCKET_PATH_BYTES else None


def _start_server(path: Path, package: str) -> None:
    env = {k: v for k, v in os.environ.items() if k not in PER_STAGE}
    with contextlib.suppress(OSError):
        subprocess.Popen(
            [sys.executable, "-m", "mlebench.resident", str(path), package],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
            close_fds=True,
            env=env,
        )


def _run_there(conn: socket.socket, request: dict[str, Any]) -> int | None:
    """Send the stage with this process's standard streams; pass signals on; its exit status."""
    try:
        data = json.dumps(request).encode()  # an environment that is not UTF-8 runs here
        socket.send_fds(conn, [_HEADER.pack(len(data)) + data], [0, 1, 2])
        first = _receive(conn)
    except (OSError, ValueError):
        return None
    if "pid" not in first:
        return None  # the server runs it nowhere (stale, or the module does not import there)

    def forward(signum: int, _frame: object) -> None:
        with contextlib.suppress(OSError):
            _send(conn, {"signal": signum})

    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
        signal.signal(signum, forward)
    try:
        ended = _receive(conn)
    except (OSError, ValueError):
        ended = {}
    if "code" not in ended:
        print("error: the resident stage server ended while the stage ran", file=sys.stderr)
        return 1
    code = int(ended["code"])
    if code < 0:  # killed by a signal: end the same way, so that the shell and DVC see the same status
        with contextlib.suppress(OSError, ValueError):  # SIGKILL's and SIGSTOP's cannot be set, nor need be
            signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
        return 128 - code
    return code


def _send(conn: socket.socket, message: dict[str, Any]) -> None:
    data = json.dumps(message).encode()
    conn.sendall(_HEADER.pack(len(data)) + data)


def _receive(conn: socket.socket) -> dict[str, Any]:
    head = _exactly(conn, _HEADER.size)
    return json.loads(_exactly(conn, _HEADER.unpack(head)[0]))


def _exactly(conn: socket.socket, size: int) -> bytes:
    data = b""
    while len(data) < size:
        chunk = conn.recv(size - len(data))  # a signal handled meanwhile (one passed on) retries it
        if not chunk:
            raise ConnectionError("the other side closed the socket")
        data += chunk
    return data


# ----------------------------------------------------------------------------------------- the server


class _Server:
    """The resident interpreter: imports the stage modules once, then forks one copy per stage."""

    def __init__(self, path: Path, package: str) -> None:
        self.path = path
        self.package = package
        self.log = Path(f"{path}.log")
        self.listener: socket.socket | None = None
        self.jobs: dict[int, socket.socket] = {}  # pid -> the stage process's connection
        self.imported: dict[str, tuple[int, int]] = {}
        self.own = {name: _namespace(os.getpid(), name) for name in NAMESPACES}
        self.lock_fd = -1
        self.warm: set[str] = set()

    def load(self) -> bool:
        """Import the stage modules that leave this process one thread, with the collector off; then freeze.

        A fork copies only the calling thread: a module whose import starts threads (a BLAS pool) is
        tried in a forked probe first (:func:`~mlebench.execution.forking.load_module`) and left to run in
        its own process.
        """
        from mlebench.execution.forking import load_module, remember

        gc.disable()
        folder = Path(importlib.import_module(self.package).__file__ or "").parent
        for name in sorted(p.stem for p in folder.glob("*.py") if not p.stem.startswith("_")):
            module = f"{self.package}.{name}"
            kind = load_module(module)
            self._note(f"{kind}: {module}")
            if kind == "warm":
                self.warm.add(module)
        gc.freeze()
        gc.enable()
        remember(self.imported)
        return bool(self.warm)

    def lock(self) -> bool:
        """Take the socket's lock, before anything is imported (False: another server holds it)."""
        self.lock_fd = os.open(f"{self.path}.lock", os.O_WRONLY | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self.lock_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False
        return True

    def listen(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()  # a socket left by a server that died
        self.listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.listener.bind(str(self.path))
        self.listener.listen(64)

    def serve(self) -> None:
        from mlebench.execution.forking import changed

        assert self.listener is not None
        woken, wake = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)  # a stage's end wakes the loop at once
        signal.set_wakeup_fd(wake)
        signal.signal(signal.SIGCHLD, lambda *_: None)
        listening = True
        idle_since = _now()
        while listening or self.jobs:
            watched: list[Any] = [woken, *([self.listener] if listening else []), *self.jobs.values()]
            readable, _, _ = select.select(watched, [], [], 1.0)
            self._reap()
            for ready in readable:
                if ready == woken:
                    with contextlib.suppress(BlockingIOError):
                        while os.read(woken, 512):
                            pass
                elif ready is self.listener:
                    if changed(self.imported):
                        listening = self._retire("a file it imported has changed")
                        continue
                    self._accept()
                else:
                    self._from_stage(ready)
            if self.jobs or readable:
                idle_since = _now()
            elif listening and _now() - idle_since > IDLE_SECS:
                listening = self._retire(f"idle for {IDLE_SECS:.0f} s")
        self._note("exits")

    def _retire(self, why: str) -> bool:
        """Take no more stages: the socket goes, and its lock with it, so that a new server can start."""
        assert self.listener is not None
        self._note(f"takes no more stages: {why}")
        with contextlib.suppress(FileNotFoundError):
            self.path.unlink()  # ours: no other server binds it while we hold the lock
        self.listener.close()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(f"{self.path}.lock")  # a server that opened it before this only runs beside a new one
        os.close(self.lock_fd)
        return False

    def _accept(self) -> None:
        assert self.listener is not None
        conn, _ = self.listener.accept()
        fds: list[int] = []
        try:
            pid, uid, _gid = struct.unpack("3i", conn.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, 12))
            data, fds = _receive_request(conn)
            other = [n for n in NAMESPACES if _namespace(pid, n) != self.own[n]]
            if uid != os.getuid() or other:  # not a stage process of this user's run: nothing runs for it
                self._note(f"refused pid {pid} (uid {uid}, other namespaces: {', '.join(other) or 'none'})")
                conn.close()
                return
            request = json.loads(data)
            module = request.get("module", "")
            if module not in self.warm or len(fds) != 3:
                self._note(f"left to its own process: pid {pid}, {module} (not imported here)")
                _send(conn, {"cold": "the module is not imported here"})
                conn.close()
                return
            job = os.fork()
            if job == 0:
                self._job(request, fds)
            self.jobs[job] = conn
            self._note(f"runs pid {job} for pid {pid}: {shlex.join([module, *request['args']])}")
            _send(conn, {"pid": job})
        except (OSError, ValueError) as exc:
            self._note(f"dropped a request: {type(exc).__name__}: {exc}")
            conn.close()
        finally:
            for fd in fds:
                with contextlib.suppress(OSError):
                    os.close(fd)

    def _job(self, request: dict[str, Any], fds: list[int]) -> None:
        from mlebench.execution.forking import run_as_main

        try:
            os.setsid()  # its own group, for the signals passed on and the kill when its stage process dies
            for target, fd in enumerate(fds):
                os.dup2(fd, target)
            if self.listener is not None:
                self.listener.close()
            for conn in self.jobs.values():
                conn.close()
            for stream in (sys.stdout, sys.stderr):
                with contextlib.suppress(Exception):
                    stream.reconfigure(line_buffering=stream.isatty())  # type: ignore[union-attr]
            signal.set_wakeup_fd(-1)
            for signum in (signal.SIGHUP, signal.SIGCHLD):
                signal.signal(signum, signal.SIG_DFL)
            os.closerange(3, 1 << 16)
        except BaseException:  # noqa: BLE001 - the stage process reports a failed stage
            os._exit(1)
        run_as_main(request)

    def _from_stage(self, conn: socket.socket) -> None:
        pid = next(p for p, c in self.jobs.items() if c is conn)
        try:
            message = _receive(conn)
        except (OSError, ValueError):  # the stage process is gone: so is its stage
            with contextlib.suppress(OSError):
                os.killpg(pid, signal.SIGKILL)
            return
        signum = int(message.get("signal", 0))
        if signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP, signal.SIGQUIT):
            with contextlib.suppress(OSError):
                os.killpg(pid, signum)

    def _note(self, text: str) -> None:
        """Add a line to the server's log (started over past :data:`LOG_BYTES`)."""
        with contextlib.suppress(OSError):
            mode = "w" if self.log.exists() and self.log.stat().st_size > LOG_BYTES else "a"
            with self.log.open(mode, encoding="utf-8") as fh:
                fh.write(f"{time.strftime('%Y-%m-%dT%H:%M:%S')} {os.getpid()} {text}\n")

    def _reap(self) -> None:
        while self.jobs:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            conn = self.jobs.pop(pid, None)
            self._note(f"pid {pid} ended: {os.waitstatus_to_exitcode(status)}")
            if conn is not None:
                with contextlib.suppress(OSError):
                    _send(conn, {"code": os.waitstatus_to_exitcode(status)})
                conn.close()


def _receive_request(conn: socket.socket) -> tuple[bytes, list[int]]:
    conn.settimeout(10)
    data, fds, _flags, _addr = socket.recv_fds(conn, 1 << 16, 3)
    if len(data) < _HEADER.size:
        raise ValueError("short request")
    size = _HEADER.unpack(data[: _HEADER.size])[0]
    body = data[_HEADER.size :]
    body += _exactly(conn, size - len(body))
    conn.settimeout(None)
    return body, list(fds)


def _namespace(pid: int, name: str) -> str:
    try:
        return os.readlink(f"/proc/{pid}/ns/{name}")
    except OSError:
        return f"unknown:{pid}"


def _now() -> float:
    return time.monotonic()


def main(argv: list[str]) -> int:
    """``python -m mlebench.resident SOCKET PACKAGE``: load, take the socket, serve until idle."""
    path, package = Path(argv[0]), argv[1]
    if path.name != f"{server_key(package)}.sock":  # not this environment's: it would serve no one
        return 1
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGHUP, signal.SIG_IGN)
    server = _Server(path, package)
    if not server.lock() or not server.load():
        return 0
    server.listen()
    server.serve()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
