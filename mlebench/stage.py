"""The wrapper every DVC stage's ``main`` runs in: config errors print cleanly, bugs keep tracebacks."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable

from mlebench_spec.errors import ConfigError

EXIT_CONFIG = 2


def run_stage(main: Callable[[list[str] | None], int], argv: list[str] | None = None) -> int:
    """Run a stage's ``main``; a ``ConfigError`` becomes one clear message and exit code 2."""
    try:
        return main(argv)
    except ConfigError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_CONFIG


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
