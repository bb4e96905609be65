"""The authoring commands of the ``mlebench`` CLI: ``thresholds`` and ``leaderboard``.

The CLI parses their arguments and reaches this module through its one lazy seam
(:func:`mlebench.cli._authoring`), so running the benchmark never loads an authoring tool. Each command takes
the parsed arguments and the CLI's resolver of ``-c ID`` / ``-s NAME`` to competition ids, and returns the
exit code.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable

from mlebench_spec.errors import ConfigError

Ids = Callable[[str | None, str | None], list[str]]
"""``ids(competition_id, competition_set)``: the competition ids a command's ``-c``/``-s`` select."""


def thresholds(args: argparse.Namespace, ids: Ids) -> int:
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
        selected = ids(args.competition_id, args.competition_set)
    lines = verify_all(selected, args.v1_checkout, args.write)
    print(*lines, sep="\n")
    failed = sum(": error: " in line for line in lines)
    print(f"{len(lines) - failed} of {len(lines)} verified, {failed} refused")
    return 1 if failed else 0


def leaderboard(args: argparse.Namespace, ids: Ids) -> int:
    """(Re)build the reference leaderboards of embedded competitions."""
    from authoring.leaderboards import build_leaderboard

    for cid in ids(args.competition_id, args.competition_set):
        t0 = time.monotonic()
        path = build_leaderboard(cid, jobs=args.jobs)
        print(f"{cid}: wrote {path} in {time.monotonic() - t0:.0f} s")
    return 0


COMMANDS: dict[str, Callable[[argparse.Namespace, Ids], int]] = {
    "thresholds": thresholds,
    "leaderboard": leaderboard,
}
"""Each authoring command of the CLI, by its name."""
