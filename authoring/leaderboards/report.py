"""``leaderboard.md``: how a reference leaderboard was made and what its medal thresholds mean."""

from __future__ import annotations

import platform
import subprocess
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pandas as pd

from authoring.leaderboards.rounds import REFINED
from graders.medals import Thresholds, award, medal_positions
from graders.registry import Metric
from mlebench_spec.declarations import Competition

__all__ = ["BuildInfo", "write_report"]

_PACKAGES = ("numpy", "pandas", "scipy", "scikit-learn", "pillow", "joblib")
_OPTIONAL = ("lightgbm", "catboost")  # authoring extras, listed when installed
TOP = 10


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
    refined: int = 0
    """How many second-round teams refine the best first-round entries (0: one round)."""


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


# What a build runs: the authoring tools, the graders and library, the competitions' declarations and
# preparation (not the leaderboard files a build writes).
_CODE = (
    "authoring",
    "graders",
    "mlebench",
    "mlebench_spec",
    ":(glob)competitions/*/*.py",
    ":(glob)competitions/*/*.yaml",
)


def _code_version(folder: Path) -> str:
    """Return the checkout's commit (``+ uncommitted changes`` when its code differs), or ``unknown``."""
    try:
        run = lambda *a: subprocess.run(  # noqa: E731
            ["git", *a], cwd=folder, capture_output=True, text=True, check=True
        ).stdout.strip()
        commit = run("rev-parse", "--short=12", "HEAD")
        dirty = run("-C", run("rev-parse", "--show-toplevel"), "status", "--porcelain", "--", *_CODE)
    except (OSError, subprocess.CalledProcessError):
        return "unknown (not a git checkout)"
    return f"{commit} + uncommitted changes" if dirty else commit


def _versions() -> str:
    found = [(name, version(name)) for name in _PACKAGES]
    for name in _OPTIONAL:
        try:
            found.append((name, version(name)))
        except PackageNotFoundError:
            pass
    return ", ".join(f"{name} {v}" for name, v in found)


def _top(table: pd.DataFrame) -> list[str]:
    rows = ["| rank | team | score | model | features |", "|---|---|---|---|---|"]
    for row in table.head(TOP).itertuples():
        rows.append(f"| {row.rank} | `{row.team}` | {_fmt(row.score)} | {row.model} | {row.features} |")
    return rows


def _counts(column: pd.Series) -> str:
    return ", ".join(f"{key:g}: {n}" for key, n in column.value_counts().sort_index().items())


def write_report(path: Path, info: BuildInfo, kind: str, notes: Sequence[str] = ()) -> None:
    """Write the Markdown report for one build to ``path``; ``notes`` describe a task's own population."""
    comp, metric, table, t = info.competition, info.metric, info.table, info.thresholds
    n = len(table)
    gold, silver, bronze = medal_positions(n)
    direction = "higher" if metric.higher_is_better else "lower"
    slowest = max(info.entries, key=lambda e: e.seconds)
    versions = _versions()
    command = f"mlebench leaderboard -c {comp.id}" + (f" --jobs {info.jobs}" if info.jobs > 1 else "")
    cpu = sum(getattr(e, "cpu_seconds", 0.0) for e in info.entries)
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
        f"- Command: `{command}`; library call:",
        f"  `authoring.leaderboards.build_leaderboard({comp.id!r}, jobs={info.jobs})`.",
        f"- Code version: {_code_version(path.parent)}.",
        f"- Date (UTC): {datetime.now(timezone.utc).date().isoformat()}. Build time: {info.seconds:.1f} s",
        f"  wall clock with {info.jobs} job(s), {cpu:.1f} s of CPU over all solutions (slowest solution",
        f"  `{slowest.solution.team}`, {slowest.seconds:.1f} s).",
        f"- Python {platform.python_version()}; {versions}.",
        f"- Task kind `{kind}`. The population design is in `authoring/leaderboards/population.py`:",
        "  a few trivial entries, a zoo of model families with varied features and hyper-parameters,",
        "  learning curves on smaller training fractions, and reseeded copies of randomised models.",
        *notes,
        *(
            [
                f"- Second round: {info.refined} teams refine the {REFINED} best first-round entries (the",
                "  task's `neighbours`: the next settings a team tries after its best submissions).",
            ]
            if info.refined
            else []
        ),
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
        "## Top entries",
        "",
        *_top(table),
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
