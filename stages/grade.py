"""DVC stage `grade`: score one cell's submission and write its grading record with lineage.

A cell the Docker runner ran is graded in its own grader container (answers mounted read-only there only);
a cell the local runner ran is graded by this process.
"""

from __future__ import annotations

from mlebench.execution.docker import grade_run
from mlebench.spec.declarations import load_competition
from mlebench.spec.paths import grade_path, private_dir, public_dir, repo_root, run_dir
from mlebench.reporting.records import write_record
from mlebench.stage import cell_args, run_stage


def main(argv: list[str] | None = None) -> int:
    """Grade runs/<agent>/<id>/<seed>/submission.csv into grades/<agent>/<id>/<seed>.json."""
    args = cell_args(__doc__ or "", argv)
    comp = load_competition(args.competition)
    record = grade_run(
        comp,
        args.agent,
        args.seed,
        run_dir(args.agent, comp.id, args.seed),
        public_dir(comp.id),
        private_dir(comp.id),
        repo_root(),
    )
    write_record(record, grade_path(args.agent, comp.id, args.seed))
    print(f"{args.agent}/{comp.id}/seed {args.seed}: {record['status']} score={record['score']}")
    return 0


if __name__ == "__main__":
    raise SystemExit(run_stage(main))
