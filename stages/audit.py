"""DVC stage `audit`: no public file may reveal the answers; flagged known leaks go to the report."""

from __future__ import annotations

import sys

from mlebench.data.audit import audit_report
from mlebench.stage import cell_args, run_stage
from mlebench_spec.declarations import load_competition
from mlebench_spec.files import write_json
from mlebench_spec.paths import audit_path, private_dir, public_dir


def main(argv: list[str] | None = None) -> int:
    """Audit ``--competition``'s prepared split; exit 1 on a finding no declared known issue explains."""
    args = cell_args(__doc__ or "", argv, cell=False)
    comp = load_competition(args.competition)
    report = audit_report(comp, public_dir(comp.id), private_dir(comp.id))
    out = audit_path(comp.id)
    out.parent.mkdir(parents=True, exist_ok=True)
    write_json(out, report)
    for finding in report["findings"]:
        if not finding["known"]:
            print(f"leak audit: {comp.id}: {finding['file']}: {finding['detail']}", file=sys.stderr)
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    raise SystemExit(run_stage(main))
