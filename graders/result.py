"""What grading one submission gives, as a typed value, and MLE-bench's report fields spelled once.

Light on purpose: no pandas and no metric code, so the records that carry a :class:`GradeResult` (the grading
record, the grader container's hand-back) can hold it typed without loading the scoring library.
:func:`report_fields` is the one place MLE-bench's per-competition report fields are named and ordered;
:data:`REPORT_FIELDS` (their names) is derived from it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any, Literal

Status = Literal["ok", "invalid_submission", "no_submission"]
Mode = Literal["v1", "strict"]
MODES: tuple[Mode, ...] = ("v1", "strict")
"""``v1``: pair rows and columns as MLE-bench v1 does (``submission.v1``); ``strict``: our checks alone."""
SCORE_DECIMALS = 5
"""Scores are rounded like MLE-bench's ``round(score, 5)``."""


@dataclass(frozen=True)
class Thresholds:
    """The scores a submission must reach for each medal, and the leaderboard's median score."""

    gold: float
    silver: float
    bronze: float
    median: float


@dataclass(frozen=True)
class Medals:
    """What a score earned. Medals are exclusive: at most one of gold, silver, bronze is true."""

    gold: bool
    silver: bool
    bronze: bool
    any_medal: bool
    above_median: bool


NO_MEDALS = Medals(gold=False, silver=False, bronze=False, any_medal=False, above_median=False)


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
            **report_fields(self),
            "grade_seconds": self.grade_seconds,
            **mode_fields(self.mode, self),
        }

    def to_json(self) -> dict[str, Any]:
        """As it travels between processes (thresholds and medals nested); :meth:`from_json` reads it back."""
        return asdict(self)

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GradeResult:
        """Read what :meth:`to_json` wrote."""
        return cls(
            **{
                **data,
                "thresholds": Thresholds(**data["thresholds"]),
                "medals": Medals(**data["medals"]),
            }
        )


def report_fields(result: GradeResult | None, submission_exists: bool = False) -> dict[str, Any]:
    """MLE-bench's graded report fields (its ``CompetitionReport`` less id, time and path), in its order.

    The one place they are spelled. ``None`` stands for a grader that raised: no score, thresholds or
    direction, no medal, not valid; ``submission_exists`` then says whether a file was there.

    >>> list(report_fields(None))[:3], report_fields(None, submission_exists=True)["submission_exists"]
    (['score', 'gold_threshold', 'silver_threshold'], True)
    """
    t = result.thresholds if result is not None else None
    m = result.medals if result is not None else NO_MEDALS
    return {
        "score": result.score if result is not None else None,
        "gold_threshold": t.gold if t is not None else None,
        "silver_threshold": t.silver if t is not None else None,
        "bronze_threshold": t.bronze if t is not None else None,
        "median_threshold": t.median if t is not None else None,
        "any_medal": m.any_medal,
        "gold_medal": m.gold,
        "silver_medal": m.silver,
        "bronze_medal": m.bronze,
        "above_median": m.above_median,
        "submission_exists": result.submission_exists if result is not None else submission_exists,
        "valid_submission": result.valid_submission if result is not None else False,
        "is_lower_better": result.is_lower_better if result is not None else None,
    }


def mode_fields(mode: str, result: GradeResult | None) -> dict[str, Any]:
    """Our fields after MLE-bench's: the grading mode, and each mode's verdict where the two differ."""
    verdicts = result.verdicts if result is not None else {}
    return {"grading_mode": mode, **({"mode_verdicts": verdicts} if verdicts else {})}


REPORT_FIELDS: tuple[str, ...] = tuple(report_fields(None))
"""The names of :func:`report_fields`, in order."""
