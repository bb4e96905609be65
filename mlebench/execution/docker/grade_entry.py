"""Inside the grader container: grade one cell and write its record where the host collects it.

The grader image holds ``graders/`` and ``mlebench/`` under ``/mlebench`` (``MLEBENCH_ROOT``); the host
mounts, read-only and at their usual relative paths, the competition folder, its public split, its private
answers and the cell's run directory. The record is exactly what the host grader writes
(:func:`mlebench.reporting.records.grade_cell`), so the two paths cannot drift apart.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from mlebench.spec.declarations import load_competition
from mlebench.spec.paths import private_dir, public_dir, repo_root, run_dir
from mlebench.reporting.records import grade_cell, write_record


def main(argv: list[str] | None = None) -> int:
    """Grade ``--agent``/``--competition``/``--seed`` and write the record to ``--out``."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--competition", required=True)
    parser.add_argument("--agent", required=True)
    parser.add_argument("--seed", required=True, type=int)
    parser.add_argument("--out", required=True, type=Path)
    args = parser.parse_args(argv)
    root = repo_root()
    comp = load_competition(args.competition, root)
    record = grade_cell(
        comp,
        args.agent,
        args.seed,
        run_dir(args.agent, comp.id, args.seed, root),
        public_dir(comp.id, root),
        private_dir(comp.id, root),
        root,
    )
    write_record(record, args.out)
    print(f"graded {args.agent}/{comp.id}/seed {args.seed}: {record['status']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
