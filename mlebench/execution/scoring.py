"""Grade one submission for one competition: the one library route every grader takes.

:func:`grade_submission` is the call: the grade stage reaches it through :func:`score_cell` (on the host or in
the grader container, so the two paths cannot drift apart), and ``mlebench grade`` / ``grade-sample`` through
:func:`report_entry`. :func:`score_cell` adds what a cell needs: a grader bug becomes a ``grader_error``
outcome with its traceback, never a lost cell.
"""

from __future__ import annotations

import time
import traceback
from pathlib import Path
from typing import Any

from graders.grade import grade
from graders.result import GradeResult, Mode
from mlebench.reporting.records import GradeOutcome, graded_entry
from mlebench.spec.cell import Cell
from mlebench.spec.declarations import load_competition
from mlebench.spec.files import utc_now


def grade_submission(
    competition_id: str, submission: Path, private: Path, mode: Mode = "v1", root: Path | None = None
) -> GradeResult:
    """Grade the file at ``submission`` for ``competition_id`` against the answers in ``private``.

    The competition is read from ``root`` (default: this checkout); ``mode`` is ``grading.mode``. Returns the
    typed result (a missing or unscorable file is a status, not an error); a grader bug raises. Check the
    answers first (:func:`mlebench.spec.datadir.checked_answers`) where they may have changed.
    """
    return grade(load_competition(competition_id, root), Path(submission), Path(private), mode)


def report_entry(
    competition_id: str, submission: Path, private: Path, mode: Mode = "v1", root: Path | None = None
) -> dict[str, Any]:
    """Grade one submission (:func:`grade_submission`) into the entry ``mlebench grade`` reports for it.

    The entry is laid out as a grading record's head (:func:`mlebench.reporting.records.graded_entry`):
    MLE-bench's fields in its order, the grading mode, then ``status`` and ``reason``.
    """
    result = grade_submission(competition_id, submission, private, mode, root)
    outcome = GradeOutcome(result, result.grade_seconds, mode)
    return graded_entry(competition_id, outcome, utc_now(), str(submission), result.status, result.reason)


def score_cell(cell: Cell, mode: Mode = "v1") -> GradeOutcome:
    """Grade ``cell.run_dir/submission.csv`` against ``cell.private`` in ``mode``; never raises."""
    load_competition(cell.competition_id, cell.root)  # a bad declaration is a ConfigError, not a grader bug
    submission = cell.run_dir / "submission.csv"
    t0 = time.monotonic()
    try:
        result = grade_submission(cell.competition_id, submission, cell.private, mode, cell.root)
    except Exception:  # noqa: BLE001 - a grader bug must become a recorded grader_error, not a lost cell
        seconds = time.monotonic() - t0
        return GradeOutcome.grader_error(traceback.format_exc(), seconds, submission.is_file(), mode)
    return GradeOutcome(result, round(time.monotonic() - t0, 3), mode)
