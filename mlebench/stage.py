"""The wrapper every DVC stage's ``main`` runs in: config errors print cleanly, bugs keep tracebacks."""

from __future__ import annotations

import argparse
import gc
import sys
from collections.abc import Callable

from mlebench_spec.errors import ConfigError

EXIT_CONFIG = 2


def run_stage(main: Callable[[list[str] | None], int], argv: list[str] | None = None) -> int:
    """Run a stage's ``main``; a ``ConfigError`` becomes one clear message and exit code 2.

    Run as the stage's process (``argv`` from its command line, ``None``), the objects its imports built are
    frozen out of the garbage collector and collection is turned back on (``python -m stages.<kind>`` imports
    with it off: :mod:`stages`), and the objects left at the end are frozen too
    (:func:`exit_without_collecting`).
    """
    if argv is None:
        gc.freeze()
        gc.enable()
    try:
        return main(argv)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_CONFIG
    finally:
        if argv is None:
            exit_without_collecting()


def exit_without_collecting() -> None:
    """Spare a process that is about to exit the garbage collections of the interpreter's shutdown.

    With pydantic, the docker SDK or pandas imported, the collections run while the modules are torn down
    took 0.3-1.4 s after a stage's last line on the loaded 2-core machine (about 0.05 s with this), once per
    DVC stage (243 in README command 1). The shutdown itself still runs: buffers are flushed, ``atexit``
    functions and temporary-folder finalizers run and non-daemon threads are joined; only objects in
    reference cycles are left to the operating system instead of being collected.
    """
    gc.freeze()


def cell_args(
    description: str, argv: list[str] | None, cell: bool = True, flags: dict[str, str] | None = None
) -> argparse.Namespace:
    """Parse the arguments every per-competition stage takes (and, for cells, agent and seed).

    ``flags`` maps a stage's own on/off options (``--name``) to their help.
    """
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--competition", "-c", required=True, help="competition id")
    if cell:
        parser.add_argument("--agent", required=True, help="agent name (a key of params.yaml's agent)")
        parser.add_argument("--seed", required=True, type=int, help="seed of this cell")
    for flag, text in (flags or {}).items():
        parser.add_argument(flag, action="store_true", help=text)
    return parser.parse_args(argv)
