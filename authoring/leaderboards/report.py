"""``leaderboard.md``: how a reference leaderboard was made and what its medal thresholds mean."""

from __future__ import annotations

import platform
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib.metadata import version
from pathlib import Path

import pandas as pd

from graders.medals import Thresholds, award, medal_positions
from graders.registry import Metric
from mlebench.spec.declarations import Competition

__all__ = ["BuildInfo", "write_report"]

_PACKAGES = ("numpy", "pandas", "scipy", "scikit-learn", "pillow", "joblib")


@dataclass(frozen=True)
class BuildInfo:
    """Everything the report says about one build.

    ``entries`` are the scored solutions (with their fit-and-score times), ``table`` the leaderboard as
    written, ``seconds`` the whole build's wall-clock time and ``jobs`` the number of parallel workers.
    """

    competition: Competition
    metric: Metric
    table: pd.DataFrame
    entries: list
    thresholds: Thresholds
    sample_score: float
    answers_score: float
    jobs: int
    seconds: float


def _fmt(value: float) -> str:
    return f"{value:.5g}"


def _standing(score: float, info: BuildInfo) -> str:
    medals = award(score, info.thresholds, info.metric.higher_is_better)
    medal = (
        "gold" if medals.gold else "silver" if medals.silver else "bronze" if medals.bronze else "no medal"
    )
    scores = info.table["score"]
    better = (scores > score) if info.metric.higher_is_better else (scores < score)
    median = "above" if medals.above_median else "not above"
    return f"{medal}, {median} the median; {int(better.sum())} of {len(scores)} teams strictly better"


def _families(table: pd.DataFrame, higher_is_better: bool) -> list[str]:
    rows = ["| model | teams | best | worst | feature sets |", "|---|---|---|---|---|"]
    for model, group in table.groupby("model", sort=True):
        best = group["score"].max() if higher_is_better else group["score"].min()
        worst = group["score"].min() if higher_is_better else group["score"].max()
        features = ", ".join(sorted(set(group["features"])))
        rows.append(f"| {model} | {len(group)} | {_fmt(best)} | {_fmt(worst)} | {features} |")
    return rows


def _counts(column: pd.Series) -> str:
    return ", ".join(f"{key:g}: {n}" for key, n in column.value_counts().sort_index().items())


def write_report(path: Path, info: BuildInfo, kind: str) -> None:
    """Write the Markdown report for one build to ``path``."""
    comp, metric, table, t = info.competition, info.metric, info.table, info.thresholds
    n = len(table)
    gold, silver, bronze = medal_positions(n)
    direction = "higher" if metric.higher_is_better else "lower"
    slowest = max(info.entries, key=lambda e: e.seconds)
    versions = ", ".join(f"{name} {version(name)}" for name in _PACKAGES)
    lines = [
        f"# Reference leaderboard: {comp.id}",
        "",
        f"`leaderboard.csv` ranks {n} reference solutions, best first, by `{metric.name}` ({direction} is",
        "better). This embedded competition has no Kaggle leaderboard, so every row is a real model: it was",
        "trained on the public training split, predicted the public test split, and its submission was",
        "scored by the competition's own grader (`graders.grade.grade`) against the private answers. The",
        "medal thresholds below are therefore scores of real models, not invented numbers.",
        "",
        "## How it was made",
        "",
        f"- Command: `mlebench leaderboard -c {comp.id}`; library call:",
        f"  `authoring.leaderboards.build_leaderboard({comp.id!r})`. This build used {info.jobs} job(s).",
        f"- Date (UTC): {datetime.now(timezone.utc).date().isoformat()}. Build time: {info.seconds:.1f} s",
        f"  (slowest solution `{slowest.solution.team}`, {slowest.seconds:.1f} s).",
        f"- Python {platform.python_version()}; {versions}.",
        f"- Task kind `{kind}`. The population design is in `authoring/leaderboards/population.py`:",
        "  a few trivial entries, a zoo of model families with varied features and hyper-parameters,",
        "  learning curves on smaller training fractions, and reseeded copies of randomised models.",
        "- Every solution uses fixed seeds and runs single-threaded, so a rebuild gives the same scores",
        "  whatever the number of jobs.",
        f"- Training fractions (teams): {_counts(table['train_fraction'])}.",
        f"- Seeds (teams): {_counts(table['seed'])}.",
        "",
        "Team names read `<model>-<hyper-parameters>-<feature set>-f<train fraction>-s<seed>` (the feature",
        "set is left out when it is `all` or `none`); the `params` column holds the hyper-parameters as",
        "JSON.",
        "",
        *_families(table, metric.higher_is_better),
        "",
        "## Medal thresholds",
        "",
        f"From `graders.medals.thresholds`: with {n} teams, gold is position {gold}, silver {silver} and",
        f"bronze {bronze}.",
        "",
        "| threshold | position | score |",
        "|---|---|---|",
        f"| gold | {gold} | {_fmt(t.gold)} |",
        f"| silver | {silver} | {_fmt(t.silver)} |",
        f"| bronze | {bronze} | {_fmt(t.bronze)} |",
        f"| median | - | {_fmt(t.median)} |",
        "",
        f"Best team `{table['team'].iloc[0]}` scores {_fmt(table['score'].iloc[0])}; worst team",
        f"`{table['team'].iloc[-1]}` scores {_fmt(table['score'].iloc[-1])}.",
        "",
        "## Reference submissions",
        "",
        "| submission | score | standing |",
        "|---|---|---|",
        f"| `sample_submission.csv` | {_fmt(info.sample_score)} | {_standing(info.sample_score, info)} |",
        f"| private answers (perfect) | {_fmt(info.answers_score)} | {_standing(info.answers_score, info)} |",
        "",
    ]
    path.write_text("\n".join(lines))
