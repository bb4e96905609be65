"""Grade one submission for one competition: validate, score, compare with the leaderboard."""

from __future__ import annotations

import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from mlebench.spec.declarations import Competition

from .answers import load_answers
from .errors import InvalidSubmission
from .leaderboard import load_leaderboard
from .medals import Medals, Thresholds, award, thresholds
from .registry import get_metric
from .submission import read_submission, validate

Status = Literal["ok", "invalid_submission", "no_submission"]
SCORE_DECIMALS = 5
"""Scores are rounded like MLE-bench's ``round(score, 5)``."""


@dataclass(frozen=True)
class GradeResult:
    """The outcome of grading one submission.

    Attributes
    ----------
    status
        ``"ok"`` (scored), ``"invalid_submission"`` (the file exists but cannot be scored; see
        ``reason``) or ``"no_submission"`` (no file). Grader bugs are not a status here: they raise, and
        the caller records ``grader_error`` with the traceback.
    reason
        Why the submission was not scored: the validation reasons joined by ``"; "``, or the missing
        path. ``""`` when ``status`` is ``"ok"``.
    score
        The metric's value rounded to 5 decimals, or None unless ``status`` is ``"ok"``. It can be NaN
        for a metric undefined on the input; NaN earns no medal.
    thresholds
        Gold, silver, bronze and median scores from the competition's leaderboard (always filled in).
    medals
        The medals the score earned (none when there is no score); ``above_median`` is strict.
    is_lower_better
        The metric's direction, from the metric registry (not from the leaderboard's order).
    submission_exists
        Whether a file was found at the submission path.
    valid_submission
        Whether the submission was scored (``status == "ok"``).
    grade_seconds
        Wall-clock time spent grading, in seconds.

    """

    status: Status
    reason: str
    score: float | None
    thresholds: Thresholds
    medals: Medals
    is_lower_better: bool
    submission_exists: bool
    valid_submission: bool
    grade_seconds: float

    def to_dict(self) -> dict[str, Any]:
        """Flatten to MLE-bench's report field names plus ``status``, ``reason`` and ``grade_seconds``."""
        return {
            "status": self.status,
            "reason": self.reason,
            "score": self.score,
            "gold_threshold": self.thresholds.gold,
            "silver_threshold": self.thresholds.silver,
            "bronze_threshold": self.thresholds.bronze,
            "median_threshold": self.thresholds.median,
            "any_medal": self.medals.any_medal,
            "gold_medal": self.medals.gold,
            "silver_medal": self.medals.silver,
            "bronze_medal": self.medals.bronze,
            "above_median": self.medals.above_median,
            "submission_exists": self.submission_exists,
            "valid_submission": self.valid_submission,
            "is_lower_better": self.is_lower_better,
            "grade_seconds": self.grade_seconds,
        }


def competition_thresholds(competition: Competition, higher_is_better: bool) -> Thresholds:
    """Medal thresholds: declared ones (``medals:``) when present, else computed from the leaderboard file."""
    declared = competition.medals
    if declared is not None:
        return Thresholds(
            gold=declared.gold, silver=declared.silver, bronze=declared.bronze, median=declared.median
        )
    return thresholds(load_leaderboard(competition.leaderboard_path, higher_is_better))


def grade(competition: Competition, submission_path: Path, private_dir: Path) -> GradeResult:
    """Grade the submission at ``submission_path`` against ``private_dir / competition.submission.answers``.

    The answers are read by :func:`graders.answers.load_answers` (declared derived columns added).

    A missing path gives ``no_submission``; anything else at the path that cannot be scored (a symbolic
    link, a folder, a named pipe, bytes that are not a CSV, ...) is an :class:`InvalidSubmission` and gives
    ``invalid_submission`` with its reasons. Anything else (an unknown metric, a bad leaderboard or answers
    file, a metric failing on validated input) is a bug on our side and propagates with its traceback.
    """
    started = time.perf_counter()
    metric = get_metric(competition.metric.name)
    limits = competition_thresholds(competition, metric.higher_is_better)
    submission_path = Path(submission_path)

    def result(status: Status, reason: str = "", score: float | None = None) -> GradeResult:
        return GradeResult(
            status=status,
            reason=reason,
            score=score,
            thresholds=limits,
            medals=award(score, limits, metric.higher_is_better),
            is_lower_better=not metric.higher_is_better,
            submission_exists=status != "no_submission",
            valid_submission=status == "ok",
            grade_seconds=time.perf_counter() - started,
        )

    if not (submission_path.is_symlink() or submission_path.exists()):
        return result("no_submission", f"no submission file at {submission_path}")
    answers = load_answers(private_dir, competition.submission)
    args = dict(competition.metric.args)
    try:
        y_true, y_pred = validate(
            read_submission(submission_path), answers, competition.submission, metric, metric_args=args
        )
    except InvalidSubmission as exc:
        return result("invalid_submission", str(exc))
    return result("ok", score=round(float(metric.fn(y_true, y_pred, **args)), SCORE_DECIMALS))
