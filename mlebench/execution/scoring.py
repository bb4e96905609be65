"""Grade one submission where a cell or the CLI needs it: both take the graders' one route.

:func:`graders.grade.grade` is the one library call that grades a submission. The grade stage reaches it
through :func:`score_cell` (on the host or in the grader container, so the two paths cannot drift apart);
``mlebench grade`` and ``grade-sample`` through :func:`report_entry`. :func:`score_cell` adds what a cell
needs: a grader bug becomes a ``grader_error`` outcome with its traceback, never a lost cell.
"""

from __future__ import annotations

import time
import traceback
from pathlib import Path
from typing import Any

from graders.grade import grade
from graders.result import Mode
from mlebench.reporting.records import GradeOutcome, graded_entry
from mlebench_spec.cell import Cell
from mlebench_spec.declarations import load_competition
from mlebench_spec.files import utc_now


def report_entry(
    competition_id: str, submission: Path, private: Path, mode: Mode = "v1", root: Path | None = None
) -> dict[str, Any]:
    """Grade the file at ``submission`` against ``private`` into the entry ``mlebench grade`` reports for it.

    The entry is laid out as a grading record's head (:func:`mlebench.reporting.records.graded_entry`):
    MLE-bench's fields in its order, the grading mode, then ``status`` and ``reason``. A grader bug raises.
    Check the answers first (:func:`mlebench_spec.datadir.checked_answers`), as the grade stage does.
    """
    result = grade(load_competition(competition_id, root), Path(submission), Path(private), mode)
    outcome = GradeOutcome(result, result.grade_seconds, mode)
    return graded_entry(competition_id, outcome, utc_now(), str(submission), result.status, result.reason)


def score_cell(cell: Cell, mode: Mode = "v1") -> GradeOutcome:
    """Grade ``cell.run_dir/submission.csv`` against ``cell.private`` in ``mode``; never raises."""
    comp = load_competition(cell.competition_id, cell.root)  # a bad declaration is a ConfigError, not a bug
    submission = cell.run_dir / "submission.csv"
    t0 = time.monotonic()
    try:
        result = grade(comp, submission, cell.private, mode)
    except Exception:  # noqa: BLE001 - a grader bug must become a recorded grader_error, not a lost cell
        seconds = time.monotonic() - t0
        return GradeOutcome.grader_error(traceback.format_exc(), seconds, submission.is_file(), mode)
    return GradeOutcome(result, round(time.monotonic() - t0, 3), mode)
