"""MLE-bench v1's grading types (``mlebench.grade_helpers``): ``Grader``, ``CompetitionReport``, the error.

Part of the v1 face. A competition's :class:`Grader` (built by :mod:`mlebench.registry`) scores through the
one grading path of this project, :func:`graders.grade.grade`: frames handed to it are written to a scratch
folder as the CSV files that function reads. Thresholds and medals come from :mod:`graders.medals`.
"""

from __future__ import annotations

import logging
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import pandas as pd

from graders.medals import award, thresholds
from mlebench.utils import import_fn

logger = logging.getLogger(__name__)


class InvalidSubmissionError(Exception):
    """The submission cannot be graded (v1's name); the message says why."""


class CompetitionScorer:
    """A competition's v1 ``grade_fn``: ``(submission, answers) -> score``, by :func:`graders.grade.grade`.

    The submission is written as ``submission.csv`` and the answers under the declared answers file name in
    a scratch folder beside links to the competition's other private files (``private_dir``, when it exists),
    then graded in v1 mode. An invalid submission raises :class:`InvalidSubmissionError` with the reasons.
    """

    def __init__(self, competition_id: str, private_dir: Path) -> None:
        self.competition_id = competition_id
        self.private_dir = Path(private_dir)

    def __call__(self, submission: pd.DataFrame, answers: Any) -> float:
        """Score ``submission`` against ``answers``; raise InvalidSubmissionError with the reasons."""
        from graders.grade import grade
        from mlebench_spec.declarations import load_competition

        comp = load_competition(self.competition_id)
        with tempfile.TemporaryDirectory(prefix="mlebench-v1-") as scratch:
            folder = Path(scratch)
            private = folder / "private"
            private.mkdir()
            if self.private_dir.is_dir():
                for item in self.private_dir.iterdir():
                    if item.name != comp.submission.answers:
                        (private / item.name).symlink_to(item.resolve())
            _write_answers(answers, private / comp.submission.answers)
            path = folder / "submission.csv"
            pd.DataFrame(submission).to_csv(path, index=False)
            result = grade(comp, path, private, mode="v1")
        if result.status != "ok":
            raise InvalidSubmissionError(result.reason)
        return result.score  # type: ignore[return-value]


def _write_answers(answers: Any, path: Path) -> None:
    if isinstance(answers, pd.DataFrame):
        answers.to_csv(path, index=False)
    elif isinstance(answers, list):
        pd.DataFrame(answers).to_json(path, orient="records", lines=True)
    else:
        raise TypeError(f"answers must be a DataFrame (or a list of dicts), got {type(answers).__name__}")


class Grader:
    """Score a submission and place a score on a leaderboard, as v1's ``Grader`` does.

    ``grade_fn`` is a callable or a ``module:function`` string (imported, as v1 does). ``higher_is_better``
    is the metric's direction from our metric registry; when it is None (a grader built by hand), the
    direction is read from the leaderboard's order as v1 does.
    """

    def __init__(
        self, name: str, grade_fn: str | Callable[..., Any], higher_is_better: bool | None = None
    ) -> None:
        if not isinstance(name, str) or not name:
            raise ValueError("Grader name must be a non-empty string.")
        self.name = name
        self.grade_fn = import_fn(grade_fn) if isinstance(grade_fn, str) else grade_fn
        self.higher_is_better = higher_is_better

    @staticmethod
    def from_dict(data: dict) -> Grader:
        """Build from v1's ``grader:`` config block (``name``, ``grade_fn``)."""
        return Grader(**data)

    def __call__(self, submission: pd.DataFrame, answers: Any) -> float | None:
        """Return the score rounded to 5 decimals, or None (logged) when the submission cannot be graded."""
        try:
            score = self.grade_fn(submission, answers)
        except InvalidSubmissionError as exc:
            logger.warning(f"Invalid submission: {exc}")
            return None
        except Exception as exc:  # noqa: BLE001 - v1's contract: any failure is an ungraded submission
            logger.error(f"Unexpected error during grading: {exc}. Check {self.grade_fn!r}", exc_info=True)
            return None
        return round(score, 5)

    def is_lower_better(self, leaderboard: pd.DataFrame) -> bool:
        """Whether lower scores are better: the metric's direction, else the leaderboard's (top < bottom)."""
        if self.higher_is_better is not None:
            return not self.higher_is_better
        scores = leaderboard["score"]
        return bool(scores.iloc[0] < scores.iloc[-1])

    def rank_score(self, score: float | None, leaderboard: pd.DataFrame) -> dict:
        """Compute the thresholds ``leaderboard`` gives (Kaggle's rules) and the medals ``score`` earns.

        Keys: ``gold_medal``, ``silver_medal``, ``bronze_medal``, ``above_median`` (bools) and
        ``gold_threshold``, ``silver_threshold``, ``bronze_threshold``, ``median_threshold`` (floats).
        """
        if "score" not in leaderboard.columns:
            raise ValueError("Leaderboard must have a `score` column.")
        if score is not None and not isinstance(score, (float, int)):
            raise TypeError(f"Expected `score` to be a `float` or `int` but got a {type(score)}.")
        limits = thresholds(list(leaderboard["score"]))
        medals = award(score, limits, higher_is_better=not self.is_lower_better(leaderboard))
        return {
            "gold_medal": medals.gold,
            "silver_medal": medals.silver,
            "bronze_medal": medals.bronze,
            "above_median": medals.above_median,
            "gold_threshold": limits.gold,
            "silver_threshold": limits.silver,
            "bronze_threshold": limits.bronze,
            "median_threshold": limits.median,
        }


@dataclass(frozen=True)
class CompetitionReport:
    """One graded submission, with v1's fields; :meth:`to_dict` gives v1's JSON types."""

    competition_id: str
    score: float | None
    gold_threshold: float
    silver_threshold: float
    bronze_threshold: float
    median_threshold: float
    any_medal: bool
    gold_medal: bool
    silver_medal: bool
    bronze_medal: bool
    above_median: bool
    submission_exists: bool
    valid_submission: bool
    is_lower_better: bool
    created_at: datetime
    submission_path: str

    def to_dict(self) -> dict:
        """Plain JSON values: floats, bools, ``created_at`` in ISO format."""
        out: dict[str, Any] = {"competition_id": self.competition_id}
        out["score"] = None if self.score is None else float(self.score)
        out.update({k: float(getattr(self, k)) for k in _THRESHOLDS})
        out.update({k: bool(getattr(self, k)) for k in _FLAGS})
        out["created_at"] = self.created_at.isoformat()
        out["submission_path"] = self.submission_path
        return out

    @classmethod
    def from_dict(cls, data: dict) -> CompetitionReport:
        """Read back what :meth:`to_dict` wrote (the mapping is not changed)."""
        return cls(
            competition_id=data["competition_id"],
            score=None if data["score"] is None else float(data["score"]),
            **{k: float(data[k]) for k in _THRESHOLDS},
            **{k: bool(data[k]) for k in _FLAGS},
            created_at=datetime.fromisoformat(data["created_at"]),
            submission_path=data["submission_path"],
        )


_THRESHOLDS = ("gold_threshold", "silver_threshold", "bronze_threshold", "median_threshold")
_FLAGS = (
    "any_medal",
    "gold_medal",
    "silver_medal",
    "bronze_medal",
    "above_median",
    "submission_exists",
    "valid_submission",
    "is_lower_better",
)

__all__ = ["CompetitionReport", "CompetitionScorer", "Grader", "InvalidSubmissionError"]
