"""Score reference submissions with the competition's own grader (``graders.grade.grade``).

The leaderboard must use exactly the scoring agents get, so every reference submission goes through the
official :func:`graders.grade.grade`: same CSV reader, same validation, same metric, same rounding.
``grade`` also compares the score with the competition's leaderboard, which is what we are building;
so the scorer hands it a copy of the declaration whose ``leaderboard`` points at a one-row placeholder
in a temporary folder. Only the score is used; the placeholder's medals are discarded.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from graders.grade import grade
from graders.registry import get_metric
from mlebench_spec.declarations import Competition

__all__ = ["Scorer"]


@dataclass(frozen=True)
class Scorer:
    """Grades submission files for one competition against its private answers."""

    competition: Competition
    private: Path

    @classmethod
    def create(cls, competition: Competition, private: Path, workdir: Path) -> Scorer:
        """Create a scorer whose placeholder leaderboard lives in ``workdir``."""
        placeholder = workdir / "placeholder-leaderboard.csv"
        best = get_metric(competition.metric.name).best
        pd.DataFrame({"team": ["placeholder"], "score": [best]}).to_csv(placeholder, index=False)
        # An absolute ``leaderboard`` wins over the competition folder in ``Competition.leaderboard_path``.
        detached = competition.model_copy(update={"leaderboard": str(placeholder.resolve())})
        return cls(detached, private)

    def score(self, submission: Path) -> float:
        """Return the official score of ``submission``; raise if it cannot be scored (a bug on our side)."""
        result = grade(self.competition, submission, self.private)
        if result.status != "ok" or result.score is None:
            raise RuntimeError(f"{self.competition.id}: {submission.name} was not scored: {result.reason}")
        return float(result.score)
