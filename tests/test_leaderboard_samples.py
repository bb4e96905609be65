"""Committed reference leaderboards reproduce: a sample of entries is trained and scored again.

For every embedded competition with a feature-engineering recipe (its strong entries need the
``authoring`` extra: LightGBM and CatBoost), three entries are re-run from freshly prepared data: the best
LightGBM entry, the entry at the median rank and the last one. Their scores must equal the committed
``leaderboard.csv`` rows (same seeds, one thread, the competition's own grader).
"""

from __future__ import annotations

import importlib.util

import pandas as pd
import pytest
from embedded_fixtures import EMBEDDED

from authoring.leaderboards.build import rescore
from authoring.leaderboards.engineered import recipe_for
from authoring.leaderboards.tasks import load_task
from graders.registry import get_metric
from mlebench.spec.declarations import load_competition

WITH_RECIPE = [cid for cid in EMBEDDED if recipe_for(cid) is not None]
MISSING = [name for name in ("lightgbm", "catboost") if importlib.util.find_spec(name) is None]


def _sample(table: pd.DataFrame) -> list[str]:
    strong = table[table["model"] == "lgbm"]["team"].iloc[0]
    return list(dict.fromkeys([strong, table["team"].iloc[len(table) // 2], table["team"].iloc[-1]]))


def test_recipes_cover_the_tabular_competitions() -> None:
    assert {"titanic-lite", "credit-scoring", "chicago-ridership"} <= set(WITH_RECIPE)


@pytest.mark.parametrize("competition_id", WITH_RECIPE)
def test_committed_leaderboard_is_the_current_population(competition_id: str, prepare_once) -> None:
    """Every team of the population is on the committed leaderboard and nothing else (else rebuild it)."""
    comp = load_competition(competition_id)
    task = load_task(comp, prepare_once(competition_id).public, get_metric(comp.metric.name))
    committed = set(pd.read_csv(comp.leaderboard_path)["team"])
    expected = {s.team for s in task.population()}
    assert committed == expected, (
        f"{competition_id}: leaderboard.csv is stale; rebuild it with `mlebench leaderboard -c {competition_id}`"
        f" (missing {sorted(expected - committed)[:5]}, extra {sorted(committed - expected)[:5]})"
    )


@pytest.mark.skipif(bool(MISSING), reason=f"the authoring extra is not installed ({', '.join(MISSING)})")
@pytest.mark.parametrize("competition_id", WITH_RECIPE)
def test_sampled_entries_score_as_committed(competition_id: str, prepare_once) -> None:
    table = pd.read_csv(load_competition(competition_id).leaderboard_path)
    teams = _sample(table)
    committed = table.set_index("team")["score"]
    scores = rescore(competition_id, teams, prepare_once(competition_id).out)
    assert {t: scores[t] for t in teams} == {t: float(committed[t]) for t in teams}
