"""Inside the grader container: score one cell and write the outcome where the host collects it.

The grader image holds the modules grading imports under ``/mlebench`` (``MLEBENCH_ROOT``); the host mounts,
read-only and at their usual relative paths, the competition folder, its public split, its private answers
and the cell's run directory. The score comes from :func:`mlebench.execution.scoring.score_cell`, the same
call the host grader makes; the host builds the grading record from it.
"""

from __future__ import annotations

import argparse
import gc
from pathlib import Path

from graders.grade import MODES
from mlebench.execution.scoring import score_cell
from mlebench_spec.cell import Cell
from mlebench_spec.files import write_json
from mlebench_spec.paths import repo_root


def main(argv: list[str] | None = None) -> int:
    """Score ``--agent``/``--competition``/``--seed`` and write the outcome to ``--out``."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--competition", required=True)
    parser.add_argument("--agent", required=True)
    parser.add_argument("--seed", required=True, type=int)
    parser.add_argument("--mode", choices=MODES, default="v1", help="grading.mode")
    parser.add_argument("--out", required=True, type=Path)
    args = parser.parse_args(argv)
    outcome = score_cell(Cell.planned(args.competition, args.agent, args.seed, repo_root()), args.mode)
    write_json(args.out, outcome.to_json())
    print(f"graded {args.agent}/{args.competition}/seed {args.seed}: {outcome.status}")
    return 0


if __name__ == "__main__":
    code = main()
    gc.freeze()  # the container ends sooner: its exit skips collecting pandas' objects (mlebench.stage)
    raise SystemExit(code)
