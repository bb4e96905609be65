"""Run a module as ``python -m`` would in a forked copy of an interpreter that imported it already.

Shared by the two warm starts: the local executor's zygote (:mod:`mlebench.scheduling.executors.warm`) and
the resident stage server of ``dvc repro`` (:mod:`mlebench.resident`). A fork copies only the calling
thread, so a module is imported where it will be forked from only if that leaves a single thread
(:func:`load_module`); the files imported are remembered by size and mtime, so that an edited source is
never run from a stale copy (:func:`changed`).
"""

from __future__ import annotations

import atexit
import contextlib
import importlib
import os
import runpy
import signal
import sys
import threading
import traceback
from typing import Any, NoReturn


def load_module(module: str) -> str:
    """Import ``module`` here if that leaves one thread (tried first in a forked probe): warm, else cold."""
    probe = os.fork()
    if probe == 0:
        ok = False
        with contextlib.suppress(BaseException):
            os.dup2(os.open(os.devnull, os.O_WRONLY), 2)
            importlib.import_module(module)
            ok = threads() == 1
        os._exit(0 if ok else 1)
    _, status = os.waitpid(probe, 0)
    if os.waitstatus_to_exitcode(status) != 0:
        return "cold"
    try:
        importlib.import_module(module)
    except BaseException:  # noqa: BLE001 - its cold run reports the error as it always did
        return "cold"
    return "warm" if threads() == 1 else "cold"


def threads() -> int:
    """Return how many threads this process has."""
    return len(os.listdir("/proc/self/task"))


def remember(imported: dict[str, tuple[int, int]]) -> None:
    """Add the file of every module imported so far to ``imported``, with its mtime and size."""
    for mod in list(sys.modules.values()):
        path = getattr(mod, "__file__", None)
        if path and path not in imported:
            with contextlib.suppress(OSError):
                st = os.stat(path)
                imported[path] = (st.st_mtime_ns, st.st_size)


def changed(imported: dict[str, tuple[int, int]]) -> bool:
    """Return whether a file of ``imported`` is gone or has another mtime or size now."""
    for path, seen in imported.items():
        try:
            st = os.stat(path)
        except OSError:
            return True
        if (st.st_mtime_ns, st.st_size) != seen:
            return True
    return False


def run_as_main(request: dict[str, Any]) -> NoReturn:
    """In a forked child: run ``request["module"]`` as ``python -m`` would, then exit as it would.

    ``request``: ``module``, ``args``, ``cwd`` and ``env`` (the whole environment). Never returns.
    """
    code = 1
    try:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        sys.path[0] = os.getcwd()  # what ``python -m`` puts first
        sys.argv = [request["module"], *request["args"]]
        sys.modules.pop(request["module"], None)  # cold, ``-m`` has it only as __main__; its imports stay
        runpy.run_module(request["module"], run_name="__main__", alter_sys=True)
        code = 0
    except SystemExit as exc:
        code = _exit_status(exc.code)
    except BaseException:  # noqa: BLE001 - what an uncaught exception does to ``python -m``
        traceback.print_exc()
        code = 1
    finally:
        with contextlib.suppress(Exception):
            threading._shutdown()  # type: ignore[attr-defined]  # non-daemon threads, as at exit
            atexit._run_exitfuncs()
            sys.stdout.flush()
            sys.stderr.flush()
        os._exit(code & 0xFF)


def _exit_status(code: object) -> int:
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    print(code, file=sys.stderr)
    return 1
