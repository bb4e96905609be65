"""DVC stage `selfcheck`: the answers must win gold and the sample submission nothing, before agents run.

Writes its report (scores and thresholds) and, when both checks pass, the gate agent runs depend on, whose
content is fixed: a leaderboard or grader edit that keeps the checks passing leaves the agents' runs fresh.
"""

from __future__ import annotations

import sys

from mlebench.data.selfcheck import GATE, gate_path, selfcheck
from mlebench.stage import cell_args, run_stage
from mlebench_spec.declarations import load_competition
from mlebench_spec.files import write_json, write_text
from mlebench_spec.paths import private_dir, public_dir, selfcheck_path


def main(argv: list[str] | None = None) -> int:
    """Grade answers and sample submission of ``--competition``; exit 1 when either check fails."""
    args = cell_args(__doc__ or "", argv, cell=False)
    comp = load_competition(args.competition)
    results, failures = selfcheck(comp, public_dir(comp.id), private_dir(comp.id))
    out = selfcheck_path(comp.id)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_json(out, results)
    for failure in failures:
        print(f"selfcheck failed: {failure}", file=sys.stderr)
    if failures:
        return 1
    write_text(gate_path(comp.id), GATE)
    return 0


if __name__ == "__main__":
    raise SystemExit(run_stage(main))
