"""Before any agent runs: the answers graded as a submission must win gold, the sample submission nothing.

This catches a broken prepare, a wrong metric direction or a bad leaderboard before a whole grid is spent
on it.
"""

from __future__ import annotations

from dataclasses import asdict
from pathlib import Path
from typing import Any

from .declarations import Competition


def selfcheck(comp: Competition, public: Path, private: Path) -> tuple[dict[str, Any], list[str]]:
    """Grade the private answers and the public sample submission; return results and failures."""
    from graders.grade import grade

    results: dict[str, Any] = {}
    failures: list[str] = []
    for name, path, want_gold in (
        ("answers", private / comp.submission.answers, True),
        ("sample_submission", public / "sample_submission.csv", False),
    ):
        res = grade(comp, path, private)
        results[name] = {
            "status": res.status,
            "reason": res.reason,
            "score": res.score,
            "gold": res.medals.gold,
            "any_medal": res.medals.any_medal,
            "thresholds": asdict(res.thresholds),
        }
        if res.status != "ok":
            failures.append(f"{comp.id}: the {name} is not a valid submission: {res.reason}")
        elif want_gold and not res.medals.gold:
            failures.append(
                f"{comp.id}: the answers score {res.score}, which does not reach the gold threshold "
                f"{res.thresholds.gold}: check the metric, its direction and the leaderboard"
            )
        elif not want_gold and res.medals.any_medal:
            failures.append(
                f"{comp.id}: the sample submission scores {res.score} and wins a medal "
                f"(bronze threshold {res.thresholds.bronze}): the leaderboard is too weak"
            )
    results["ok"] = not failures
    return results, failures
