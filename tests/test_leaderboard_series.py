"""Series leaderboards reproduce: sampled committed rows are trained and scored again, as the build runs them.

For each series competition: the best entry, the best ROCKET, DTW and blend entries, the entry at the median
rank and the last one. Their scores must equal the committed ``leaderboard.csv`` rows (same seeds, one
thread, the competition's own grader), and the population must be exactly the committed teams.
"""

from __future__ import annotations

import doctest
from pathlib import Path

import pandas as pd
import pytest

from authoring.leaderboards import population as pop
from authoring.leaderboards import signals
from authoring.leaderboards.build import MIN_TEAMS, _run
from authoring.leaderboards.scoring import Scorer
from authoring.leaderboards.signals import strong_population
from authoring.leaderboards.tasks import load_task
from graders.registry import get_metric
from mlebench.spec.declarations import load_competition

SERIES = ["appliance-power-signatures", "japanese-vowels-speaker"]


def _sample(table: pd.DataFrame) -> list[str]:
    strong = [table[table["model"] == m]["team"].iloc[0] for m in ("rocket", "dtw", "blend")]
    picks = [table["team"].iloc[0], *strong, table["team"].iloc[len(table) // 2], table["team"].iloc[-1]]
    return list(dict.fromkeys(picks))


def test_signals_doctests() -> None:
    assert doctest.testmod(signals, optionflags=doctest.ELLIPSIS).failed == 0


@pytest.mark.parametrize("points", [15, 128])
def test_series_population_is_large_and_uniquely_named(points: int) -> None:
    teams = [s.team for s in [*pop.series_population(), *strong_population(points)]]
    assert len(teams) >= 100 and len(set(teams)) == len(teams) and MIN_TEAMS <= len(teams)


@pytest.mark.parametrize("competition_id", SERIES)
def test_committed_series_rows_are_reproduced(competition_id: str, prepare_once, tmp_path: Path) -> None:
    prepared = prepare_once(competition_id)
    comp = load_competition(competition_id)
    task = load_task(comp, prepared.public, get_metric(comp.metric.name))
    table = pd.read_csv(comp.leaderboard_path)
    population = {s.team: s for s in task.population()}
    assert set(population) == set(table["team"]), f"rebuild with `mlebench leaderboard -c {competition_id}`"
    committed = table.set_index("team")["score"]
    scorer = Scorer.create(comp, prepared.private, tmp_path)
    for team in _sample(table):
        entry = _run(task, population[team], scorer, tmp_path)
        assert entry.score == pytest.approx(committed[team], rel=1e-9, abs=1e-12), team
