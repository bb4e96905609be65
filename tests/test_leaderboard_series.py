"""Series leaderboards reproduce: sampled committed rows are trained and scored again, as the build runs them.

For each series competition: the best entry, the best ROCKET, DTW and blend entries, the best entry of the
second round (refinements of the first round's best), the entry at the median rank and the last one. Their
scores must equal the committed ``leaderboard.csv`` rows (same seeds, one thread, the competition's own
grader) within :data:`KERNEL_TOLERANCE`, and the population must be exactly both rounds' teams.
"""

from __future__ import annotations

import doctest
from pathlib import Path

import pandas as pd
import pytest

from authoring.leaderboards import population as pop
from authoring.leaderboards import signals
from authoring.leaderboards.build import MIN_TEAMS, _run
from authoring.leaderboards.rounds import REFINED, second_round
from authoring.leaderboards.scoring import Scorer
from authoring.leaderboards.signals import neighbours, strong_population
from authoring.leaderboards.solution import solution
from authoring.leaderboards.tasks import load_task
from graders.registry import get_metric
from mlebench_spec.declarations import load_competition

SERIES = ["appliance-power-signatures", "japanese-vowels-speaker"]
KERNEL_TOLERANCE = 0.002
"""How far a re-run score may be from the committed one. OpenBLAS and torch pick their numeric kernels by
processor (AVX2 on one machine, AVX-512 on another), which changes the last bits of sums and now and then
flips a borderline prediction: seen on two machines of this workplace, one digit in 1,000 (0.971 against
0.972), 0.0004 on the nuclei U-Net, 0.0006 on a ROCKET entry and 0.0005 on a kNN over SVD embeddings, and
the same scores exactly with the other machine's BLAS kernel forced. A changed recipe, seed or data moves
scores by more."""


def _sample(table: pd.DataFrame, refined: set[str]) -> list[str]:
    strong = [table[table["model"] == m]["team"].iloc[0] for m in ("rocket", "dtw", "blend")]
    second = table[table["team"].isin(refined)]["team"].iloc[0]
    picks = [
        table["team"].iloc[0],
        *strong,
        second,
        table["team"].iloc[len(table) // 2],
        table["team"].iloc[-1],
    ]
    return list(dict.fromkeys(picks))


class _Ladder:
    """A task whose entries are numbered; each refines to the next two numbers."""

    def population(self) -> list:
        return [solution("m", n=n) for n in range(20)]

    def neighbours(self, entry) -> list:
        n = entry.options["n"]
        return [solution("m", n=n + 1), solution("m", n=n + 2)]


def test_second_round_refines_only_the_best_and_adds_only_new_teams() -> None:
    task = _Ladder()
    first = task.population()
    ranked = [s.team for s in reversed(first)]  # 19 best ... 0 worst
    refined = second_round(task, first, ranked)
    assert [s.options["n"] for s in refined] == [20, 21]  # only 18 and 19 propose unseen teams
    mixed = [ranked[0], "m-n21-f1.00-s0", *ranked[1:]]  # a committed table holds round-two teams too
    assert second_round(task, first, mixed) == refined
    assert second_round(object(), first, ranked) == []  # a task without refinements has one round
    worst_first = list(reversed(ranked))  # now the best are 0-14, whose refinements are all entered
    assert second_round(task, first, worst_first) == []


def test_neighbours_step_along_ladders_and_reseed_random_models() -> None:
    teams = [s.team for s in neighbours(solution("rocket", "none", kernels=1000, C=30.0, points=64))]
    assert teams == [
        "rocket-kernels500-C30-points64-f1.00-s0",
        "rocket-kernels2000-C30-points64-f1.00-s0",
        "rocket-kernels1000-C10-points64-f1.00-s0",  # 30 is the ladder's top: one step only
        *[f"rocket-kernels1000-C30-points64-f1.00-s{seed}" for seed in (1, 2, 3)],
    ]
    assert neighbours(solution("slda", "none", 0.5, points=3)) == []  # learning curves are not refined
    assert [s.team for s in neighbours(solution("dtw", "none", k=5, band=0.1))] == ["dtw-k3-band0.1-f1.00-s0"]


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
    first = task.population()
    second = second_round(task, first, table["team"])
    teams = {s.team: s for s in [*first, *second]}
    assert set(teams) == set(table["team"]), f"rebuild with `mlebench leaderboard -c {competition_id}`"
    refined = {s.team for s in second}
    assert len(refined) >= REFINED  # the top was refined
    committed = table.set_index("team")["score"]
    scorer = Scorer.create(comp, prepared.private, tmp_path)
    for team in _sample(table, refined):
        entry = _run(task, teams[team], scorer, tmp_path)
        assert entry.score == pytest.approx(committed[team], abs=KERNEL_TOLERANCE), team
