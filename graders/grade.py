"""Grade one submission for one competition: validate, score, compare with the leaderboard."""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from mlebench.spec.declarations import Competition
from mlebench.spec.leaderboards import pinned_leaderboard

from .answers import load_answers
from .errors import InvalidSubmission
from .leaderboard import load_leaderboard
from .medals import Medals, Thresholds, award, thresholds
from .registry import get_metric
from .submission import read_submission, validate
from .v1_matching import as_v1, strict_spec

Status = Literal["ok", "invalid_submission", "no_submission"]
Mode = Literal["v1", "strict"]
MODES: tuple[Mode, ...] = ("v1", "strict")
"""``v1``: pair rows and columns as MLE-bench v1 does (``submission.v1``); ``strict``: our checks alone."""
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
    mode
        The grading mode that decided ``status`` and ``score`` (``v1`` or ``strict``, see :data:`MODES`).
    verdicts
        Empty when both modes agree (or the competition declares no ``submission.v1`` rules); else each
        mode's ``status``, ``score`` and ``reason``, so a score only v1's pairing gives stays visible.

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
    mode: Mode = "v1"
    verdicts: dict[str, dict[str, Any]] = field(default_factory=dict)

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
            "grading_mode": self.mode,
            **({"mode_verdicts": self.verdicts} if self.verdicts else {}),
        }


def competition_thresholds(competition: Competition, higher_is_better: bool) -> Thresholds:
    """Medal thresholds: declared ones (``medals:``) when present, else derived from the leaderboard file.

    The file must match the v1 pointer the declaration records (:func:`pinned_leaderboard`).
    """
    declared = competition.medals
    if declared is not None:
        return Thresholds(
            gold=declared.gold, silver=declared.silver, bronze=declared.bronze, median=declared.median
        )
    return thresholds(load_leaderboard(pinned_leaderboard(competition), higher_is_better))


def grade(
    competition: Competition, submission_path: Path, private_dir: Path, mode: Mode = "v1"
) -> GradeResult:
    """Grade the submission at ``submission_path`` against ``private_dir / competition.submission.answers``.

    The answers are read by :func:`graders.answers.load_answers` (declared derived columns added).
    ``mode`` picks whose verdict counts (:data:`MODES`). A competition with ``submission.v1`` rules is graded
    both ways, and where the two verdicts differ both are kept (:attr:`GradeResult.verdicts`).

    A missing path gives ``no_submission``; anything else at the path that cannot be scored (a symbolic
    link, a folder, a named pipe, bytes that are not a CSV, ...) is an :class:`InvalidSubmission` and gives
    ``invalid_submission`` with its reasons. Anything else (an unknown metric, a bad leaderboard or answers
    file, a metric failing on validated input) is a bug on our side and propagates with its traceback.
    """
    if mode not in MODES:
        raise ValueError(f"grading mode {mode!r} is not one of {list(MODES)}")
    started = time.perf_counter()
    metric = get_metric(competition.metric.name)
    limits = competition_thresholds(competition, metric.higher_is_better)
    submission_path = Path(submission_path)

    def result(status: Status, reason: str = "", score: float | None = None, verdicts=None) -> GradeResult:
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
            mode=mode,
            verdicts=verdicts or {},
        )

    if not (submission_path.is_symlink() or submission_path.exists()):
        return result("no_submission", f"no submission file at {submission_path}")
    answers = load_answers(private_dir, competition.submission)
    try:
        submission = read_submission(submission_path)
    except InvalidSubmission as exc:
        return result("invalid_submission", str(exc))
    args = dict(competition.metric.args)

    def verdict(which: Mode) -> tuple[Status, str, float | None]:
        spec = competition.submission
        frame, truth = submission, answers
        try:
            if which == "v1":
                frame, truth, spec = as_v1(frame, truth, spec, metric, args)
            else:
                spec = strict_spec(spec)
            y_true, y_pred = validate(frame, truth, spec, metric, metric_args=args)
        except InvalidSubmission as exc:
            return "invalid_submission", str(exc), None
        return "ok", "", round(float(metric.fn(y_true, y_pred, **args)), SCORE_DECIMALS)

    if competition.submission.v1 is None:
        return result(*verdict(mode))
    both = {which: verdict(which) for which in MODES}
    status, reason, score = both[mode]
    if both["v1"] == both["strict"] or _same(both["v1"], both["strict"]):
        return result(status, reason, score)
    shown = {m: {"status": s, "score": v, "reason": r} for m, (s, r, v) in both.items()}
    return result(status, reason, score, shown)


def _same(a: tuple[Status, str, float | None], b: tuple[Status, str, float | None]) -> bool:
    """Two verdicts agree: both invalid (whatever the wording), or the same score (NaN equals NaN)."""
    if a[0] != b[0]:
        return False
    if a[0] != "ok":
        return True
    return a[2] == b[2] or (a[2] is not None and b[2] is not None and a[2] != a[2] and b[2] != b[2])
