"""Build a competition's leaderboard from a population of real reference solutions.

For one competition :func:`build_leaderboard`:

1. loads the public data as a task (:mod:`.tasks`) and lists its population (:mod:`.population`);
2. trains every solution on its share of the public training rows, predicts the public test rows and
   writes the prediction as a submission CSV in a temporary folder;
3. scores each submission with the competition's own grader (:mod:`.scoring`);
   when the task proposes refinements (a ``neighbours`` method), a second round runs the neighbours of
   the :data:`.rounds.REFINED` best first-round entries, as teams tweak their best submissions: the top of a
   real leaderboard is dense;
4. checks that the result behaves like a leaderboard: the perfect answers (their submission columns, as
   the self-check grades them) earn gold and the sample submission earns no medal;
5. writes ``competitions/<id>/leaderboard.csv`` (best first, by the metric's direction) and
   ``leaderboard.md`` (how it was made, the thresholds, where the sample and the answers land).

Every solution runs with one BLAS/OpenMP thread and fixed seeds, so the scores do not depend on ``jobs``
or on the machine's core count; ``jobs`` only runs several solutions at once.
"""

from __future__ import annotations

import logging
import tempfile
import time
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pandas as pd
from joblib import Parallel, delayed
from threadpoolctl import threadpool_limits

from authoring.leaderboards.report import BuildInfo, write_report
from authoring.leaderboards.rounds import population, second_round
from authoring.leaderboards.scoring import Scorer
from authoring.leaderboards.solution import Solution
from authoring.leaderboards.tasks import Task, load_task
from graders.medals import award, thresholds
from graders.registry import get_metric
from mlebench.data.selfcheck import gold_submission
from mlebench_spec.declarations import Competition, load_competition
from mlebench_spec.errors import DataError
from mlebench_spec.paths import competitions_dir, private_dir, public_dir

__all__ = [
    "COLUMNS",
    "LeaderboardError",
    "build_leaderboard",
    "build_leaderboards",
    "leaderboard_frame",
    "rescore",
]

log = logging.getLogger(__name__)

COLUMNS = ["rank", "team", "score", "model", "features", "params", "train_fraction", "seed"]
MIN_TEAMS = 36


class LeaderboardError(RuntimeError):
    """The reference population gives no usable leaderboard (too small, or medals in the wrong place)."""


@dataclass(frozen=True)
class Entry:
    """One scored reference solution."""

    solution: Solution
    score: float
    seconds: float
    cpu_seconds: float = 0.0


def build_leaderboard(competition_id: str, root: Path | None = None, jobs: int = 1) -> Path:
    """Train, score and rank the reference population of one competition; return the leaderboard path.

    The competition must be prepared (``data/prepared/<id>/{public,private}``). Raises
    :class:`LeaderboardError`, before writing anything, if the population has fewer than 36 teams, if
    the perfect answers would not earn gold or if the sample submission would earn a medal.
    """
    comp = load_competition(competition_id, root)
    metric = get_metric(comp.metric.name)
    public, private = public_dir(comp.id, root), private_dir(comp.id, root)
    if not public.is_dir() or not (private / comp.submission.answers).is_file():
        raise DataError(
            f"{comp.id}: not prepared ({public} or {private / comp.submission.answers} is missing)"
        )
    started = time.perf_counter()
    public = graded_inputs(comp, public, private)
    task = load_task(comp, public, metric)
    solutions = task.population()
    _check_population(comp.id, solutions)
    log.info("%s: %d reference solutions (%s task), %d job(s)", comp.id, len(solutions), task.kind, jobs)
    with tempfile.TemporaryDirectory(prefix=f"leaderboard-{comp.id}-") as tmp:
        scorer = Scorer.create(comp, private, Path(tmp))
        entries = _run_all(task, solutions, scorer, Path(tmp), jobs)
        ranked = leaderboard_frame(entries, metric.higher_is_better)["team"]
        refinements = second_round(task, solutions, ranked)
        if refinements:
            log.info("%s: second round, %d refinements of the best entries", comp.id, len(refinements))
            entries += _run_all(task, refinements, scorer, Path(tmp), jobs)
        sample = scorer.score(public / "sample_submission.csv")
        answers = scorer.score(gold_submission(comp, public, private, Path(tmp)))
    table = leaderboard_frame(entries, metric.higher_is_better)
    limits = thresholds(table["score"].tolist())
    sample_medals = award(sample, limits, metric.higher_is_better)
    answer_medals = award(answers, limits, metric.higher_is_better)
    if not answer_medals.gold or sample_medals.any_medal:
        raise LeaderboardError(
            f"{comp.id}: the population gives thresholds {limits}; the perfect answers ({answers}) "
            f"must earn gold and the sample submission ({sample}) no medal"
        )
    path = competitions_dir(root) / comp.id / comp.leaderboard
    table.to_csv(path, index=False)
    seconds = time.perf_counter() - started
    info = BuildInfo(comp, metric, table, entries, limits, sample, answers, jobs, seconds, len(refinements))
    notes = (*getattr(task, "notes", ()), *([RERUN_NOTE.format(comp.rerun.inputs)] if comp.rerun else []))
    write_report(path.with_suffix(".md"), info, task.kind, notes)
    notes = getattr(task, "report_notes", None)  # a task kind may describe its own population
    if notes is not None:
        with path.with_suffix(".md").open("a", encoding="utf-8") as report:
            report.write(notes(table))
    log.info("%s: wrote %s (%d teams) in %.1f s", comp.id, path, len(table), info.seconds)
    return path


RERUN_NOTE = (
    "Graded on a re-run (`rerun:` in competition.yaml): every solution is a pipeline run on the hidden next "
    "version ({}), trained on that version's train.csv and predicting its test.csv, as the re-run of an "
    "agent's kept code is"
)


def graded_inputs(comp: Competition, public: Path, private: Path) -> Path:
    """Return the inputs submissions are made from: ``public/``, or the hidden ``rerun.inputs``."""
    return comp.rerun.inputs_dir(private) if comp.rerun else public


def build_leaderboards(competition_ids: Iterable[str], root: Path | None = None, jobs: int = 1) -> list[Path]:
    """:func:`build_leaderboard` for several competitions, one after another."""
    return [build_leaderboard(cid, root=root, jobs=jobs) for cid in competition_ids]


def rescore(
    competition_id: str, teams: Iterable[str], prepared: Path, root: Path | None = None
) -> dict[str, float]:
    """Train and score again the named teams of a competition's population; return each team's score.

    ``prepared`` is a folder with ``public/`` and ``private/``; the scores are to compare with the committed
    ``leaderboard.csv`` (whose ranking also gives the population's second round).
    """
    comp = load_competition(competition_id, root)
    metric = get_metric(comp.metric.name)
    task = load_task(comp, graded_inputs(comp, prepared / "public", prepared / "private"), metric)
    committed = pd.read_csv(comp.leaderboard_path)["team"]
    by_team = {s.team: s for s in population(task, committed)}
    unknown = sorted(set(teams) - set(by_team))
    if unknown:
        raise LeaderboardError(f"{comp.id}: teams {unknown} are not in the reference population")
    with tempfile.TemporaryDirectory(prefix=f"rescore-{comp.id}-") as tmp:
        scorer = Scorer.create(comp, prepared / "private", Path(tmp))
        return {team: _run(task, by_team[team], scorer, Path(tmp)).score for team in teams}


def leaderboard_frame(entries: list[Entry], higher_is_better: bool) -> pd.DataFrame:
    """Rank entries into the leaderboard table, best score first; ties go by team name (a stable file).

    >>> from .solution import solution
    >>> rows = [Entry(solution(name), score, 0.0) for name, score in [("a", 0.5), ("b", 0.7), ("c", 0.5)]]
    >>> leaderboard_frame(rows, higher_is_better=True)[["rank", "team", "score"]].values.tolist()
    [[1, 'b-f1.00-s0', 0.7], [2, 'a-f1.00-s0', 0.5], [3, 'c-f1.00-s0', 0.5]]
    """
    sign = -1.0 if higher_is_better else 1.0
    ordered = sorted(entries, key=lambda e: (sign * e.score, e.solution.team))
    rows = [
        {
            "rank": position,
            "team": e.solution.team,
            "score": e.score,
            "model": e.solution.model,
            "features": e.solution.features,
            "params": e.solution.params_json(),
            "train_fraction": e.solution.train_fraction,
            "seed": e.solution.seed,
        }
        for position, e in enumerate(ordered, start=1)
    ]
    return pd.DataFrame(rows, columns=COLUMNS)


def _check_population(competition_id: str, solutions: list[Solution]) -> None:
    teams = [s.team for s in solutions]
    duplicates = sorted({t for t in teams if teams.count(t) > 1})
    if duplicates:
        raise LeaderboardError(f"{competition_id}: duplicate reference teams {duplicates}")
    if len(teams) < MIN_TEAMS:
        raise LeaderboardError(f"{competition_id}: only {len(teams)} reference solutions; need {MIN_TEAMS}")


def _run_all(task: Task, solutions: list[Solution], scorer: Scorer, workdir: Path, jobs: int) -> list[Entry]:
    if jobs > 1:
        calls = (delayed(_run)(task, s, scorer, workdir) for s in solutions)
        return list(Parallel(n_jobs=jobs, backend="loky")(calls))
    return [_run(task, s, scorer, workdir) for s in solutions]


def _run(task: Task, solution: Solution, scorer: Scorer, workdir: Path) -> Entry:
    """Fit one solution, write its submission, score it."""
    started, cpu = time.perf_counter(), time.process_time()
    with threadpool_limits(limits=1), warnings.catch_warnings():
        warnings.simplefilter("ignore")  # convergence notes of deliberately small or weak models
        frame = task.predict(solution)
    path = workdir / f"{solution.team}.csv"
    frame.to_csv(path, index=False)
    score = scorer.score(path)
    path.unlink()
    return Entry(solution, score, time.perf_counter() - started, time.process_time() - cpu)
