"""The authoring commands of the ``mlebench`` CLI: ``thresholds`` and ``leaderboard``.

They plug into the CLI through the ``mlebench.commands`` entry-point group (``pyproject.toml``): the CLI
calls each ``add_*`` function with its subparsers, and never imports an authoring tool itself. What a command
runs is imported only when it runs, so ``mlebench run`` and the stages never load one. Each command takes the
parsed arguments and returns the exit code.
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path
from typing import Any

from mlebench_spec.errors import ConfigError


def thresholds(args: argparse.Namespace) -> int:
    """Verify the kept leaderboards against v1's pointers, or copy them from a v1 checkout (``--write``)."""
    from authoring.thresholds import recompute, verify_all
    from mlebench_spec.declarations import all_competition_ids, load_competition

    if args.leaderboard is not None:
        if args.write or not args.competition_id:
            raise ConfigError("--leaderboard takes one -c ID and only prints; --write needs --v1-checkout")
        comp = load_competition(args.competition_id)
        print(json.dumps(recompute(comp, args.leaderboard), indent=2))
        return 0
    if args.write and args.v1_checkout is None:
        raise ConfigError("--write copies leaderboards from a v1 checkout: give --v1-checkout PATH")
    if args.all:
        selected = [cid for cid in all_competition_ids() if load_competition(cid).v1 is not None]
    else:
        from mlebench.planning.plan import selected_ids

        selected = selected_ids(args.competition_id, args.competition_set)
    lines = verify_all(selected, args.v1_checkout, args.write)
    print(*lines, sep="\n")
    failed = sum(": error: " in line for line in lines)
    print(f"{len(lines) - failed} of {len(lines)} verified, {failed} refused")
    return 1 if failed else 0


def leaderboard(args: argparse.Namespace) -> int:
    """(Re)build the reference leaderboards of embedded competitions."""
    from authoring.leaderboards import build_leaderboard
    from mlebench.planning.plan import selected_ids

    for cid in selected_ids(args.competition_id, args.competition_set):
        t0 = time.monotonic()
        path = build_leaderboard(cid, jobs=args.jobs)
        print(f"{cid}: wrote {path} in {time.monotonic() - t0:.0f} s")
    return 0


def add_thresholds(sub: Any) -> None:
    """Add ``mlebench thresholds`` to the CLI's subparsers (entry point ``mlebench.commands``)."""
    p = sub.add_parser(
        "thresholds",
        help="check v1's leaderboards against their Git-LFS pointers and show the thresholds they give",
    )
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("-c", "--competition-id", metavar="ID")
    group.add_argument("-s", "--competition-set", metavar="NAME")
    group.add_argument(
        "-a", "--all", action="store_true", help="every competition that records a v1 leaderboard pointer"
    )
    source = p.add_mutually_exclusive_group()
    source.add_argument(
        "--v1-checkout",
        type=Path,
        metavar="PATH",
        help="a checkout of MLE-bench v1, its LFS files pulled (default: the files kept in competitions/)",
    )
    source.add_argument(
        "--leaderboard", type=Path, help="only print what this CSV (rank order, a `score` column) gives"
    )
    p.add_argument(
        "--write",
        action="store_true",
        help="keep each verified leaderboard in its competition folder and drop the declared medals: block",
    )
    p.set_defaults(func=thresholds)


def add_leaderboard(sub: Any) -> None:
    """Add ``mlebench leaderboard`` to the CLI's subparsers (entry point ``mlebench.commands``)."""
    p = sub.add_parser("leaderboard", help="(re)build reference leaderboards of embedded competitions")
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("-c", "--competition-id", metavar="ID")
    group.add_argument("-s", "--competition-set", metavar="NAME")
    p.add_argument("-j", "--jobs", type=int, default=1, help="solutions trained at once (same scores)")
    p.set_defaults(func=leaderboard)


__all__ = ["add_leaderboard", "add_thresholds", "leaderboard", "thresholds"]
