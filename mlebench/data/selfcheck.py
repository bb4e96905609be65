"""Before any agent runs: the answers graded as a submission must win gold, the sample submission nothing.

This catches a broken prepare, a wrong metric direction or a bad leaderboard before a whole grid is spent
on it.
"""

from __future__ import annotations

import tempfile
from dataclasses import asdict
from pathlib import Path
from typing import Any

import pandas as pd

from mlebench_spec.declarations import Competition
from mlebench_spec.paths import selfcheck_path

GATE = "passed: the answers earn gold and the sample submission no medal\n"
"""The gate's content, the same whatever the scores and thresholds."""


def gate_path(competition_id: str, root: Path | None = None) -> Path:
    """Return the file the self-check writes only when it passes, beside its report: what agents depend on.

    Its content never changes, so a new leaderboard (new thresholds in the report) or a grader edit re-runs
    the self-check and the grading, never the agents.
    """
    return selfcheck_path(competition_id, root).with_suffix(".passed")


def selfcheck(comp: Competition, public: Path, private: Path) -> tuple[dict[str, Any], list[str]]:
    """Grade the answers (their submission columns) and the sample submission; return results and failures."""
    from graders.grade import grade

    results: dict[str, Any] = {}
    failures: list[str] = []
    with tempfile.TemporaryDirectory(prefix="mlebench-gold-") as tmp:
        gold = gold_submission(comp, public, private, Path(tmp))
        for name, path, want_gold in (
            ("answers", gold, True),
            ("sample_submission", comp.submission.sample_path(public, private), False),
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
            failures += _failures(comp, name, res, want_gold)
    results["ok"] = not failures
    return results, failures


def gold_submission(comp: Competition, public: Path, private: Path, scratch: Path) -> Path:
    """Return a perfect submission: the declared gold file, else the answers' columns saved in ``scratch``."""
    gold = comp.submission.gold_path(public, private)
    if gold is None:
        gold = scratch / "gold_submission.csv"
        _gold_frame(comp, public, private).to_csv(gold, index=False)
    return gold


def _gold_frame(comp: Competition, public: Path, private: Path) -> pd.DataFrame:
    """Return the answers' submission columns, blank cells filled with the sample submission's values.

    Blank numeric answer cells are rows the grader does not score (osic's weeks without a visit), so any
    valid value will do there, and the sample's values are valid by construction. Elsewhere a blank is an
    answer (an empty mask, no text) and stays.
    """
    from graders.answers import load_answers
    from graders.inputs import get_inputs

    spec = comp.submission
    read = {"dtype": str, "keep_default_na": False}
    gold = load_answers(private, spec)[spec.columns]
    targets = spec.target_columns
    blank = gold[targets].eq("")
    sample_path = spec.sample_path(public, private)
    numeric = get_inputs(comp.metric.name).kind.numeric
    pairable = spec.match != "occurrence"  # (no competition has blank answers and repeated ids)
    if not numeric or not pairable or not blank.to_numpy().any() or not sample_path.is_file():
        return gold
    sample = pd.read_csv(sample_path, **read)
    if spec.match == "id":
        sample = (
            sample.drop_duplicates(spec.id_column).set_index(spec.id_column).reindex(gold[spec.id_column])
        )
    filler = sample[targets].set_axis(gold.index)
    gold[targets] = gold[targets].mask(blank, filler)
    return gold


def _failures(comp: Competition, name: str, res: Any, want_gold: bool) -> list[str]:
    if res.status != "ok":
        return [f"{comp.id}: the {name} is not a valid submission: {res.reason}"]
    if want_gold and not res.medals.gold:
        return [
            f"{comp.id}: the answers score {res.score}, which does not reach the gold threshold "
            f"{res.thresholds.gold}: check the metric, its direction and the leaderboard"
        ]
    if not want_gold and res.medals.any_medal:
        return [
            f"{comp.id}: the sample submission scores {res.score} and wins a medal "
            f"(bronze threshold {res.thresholds.bronze}): the leaderboard is too weak"
        ]
    return []
