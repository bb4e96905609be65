"""Score one cell's submission against its answers, on whichever host or container has the answers.

This is the one call into the graders for a cell: the host grader and the grader container both run it, so
the two paths cannot drift apart. A grader bug becomes a ``grader_error`` outcome with its traceback, never a
lost cell.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import replace

from graders.grade import Mode, grade
from mlebench.reporting.records import GradeOutcome
from mlebench.spec.cell import Cell
from mlebench.spec.declarations import load_competition


def score_cell(cell: Cell, mode: Mode = "v1") -> GradeOutcome:
    """Grade ``cell.run_dir/submission.csv`` against ``cell.private`` in ``mode``; never raises."""
    comp = load_competition(cell.competition_id, cell.root)
    submission = cell.run_dir / "submission.csv"
    t0 = time.monotonic()
    try:
        result = grade(comp, submission, cell.private, mode)
    except Exception:  # noqa: BLE001 - a grader bug must become a recorded grader_error, not a lost cell
        seconds = time.monotonic() - t0
        failed = GradeOutcome.grader_error(traceback.format_exc(), seconds, submission.is_file())
        return replace(failed, fields={**failed.fields, "grading_mode": mode})
    return GradeOutcome.from_result({**result.to_dict(), "grade_seconds": time.monotonic() - t0})
