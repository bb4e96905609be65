"""Committed reference leaderboards reproduce: a sample of entries is trained and scored again.

For every embedded competition with a feature-engineering recipe (its strong entries need the
``authoring`` extra: LightGBM and CatBoost), three entries are re-run from freshly prepared data: the best
LightGBM entry, the entry at the median rank and the last one. The other competitions name their sample
in :data:`SAMPLES`: an entry of the strongest family that trains in seconds, and cheap ones further down
(torch entries need the same extra). The series competitions are sampled in ``test_leaderboard_series.py``.
Scores must equal the committed ``leaderboard.csv`` rows (same seeds, one thread, the competition's own
grader) within the processor's kernel tolerance (``KERNEL_TOLERANCE``), and every population must be exactly
its committed teams.
"""

from __future__ import annotations

import importlib.util

import pandas as pd
import pytest
from embedded_fixtures import EMBEDDED
from test_leaderboard_series import KERNEL_TOLERANCE, SERIES

from authoring.leaderboards.build import rescore
from authoring.leaderboards.engineered import recipe_for
from authoring.leaderboards.rounds import population
from authoring.leaderboards.tasks import load_task
from graders.registry import get_metric
from mlebench_spec.declarations import load_competition

WITH_RECIPE = [cid for cid in EMBEDDED if recipe_for(cid) is not None]
MISSING = [name for name in ("lightgbm", "catboost", "torch") if importlib.util.find_spec(name) is None]
SAMPLES = {
    "cmudict-g2p": [  # a first-round graphone, a second-round one (a refinement), a rule table
        "graphone-order5-stress1-f1.00-s0",
        "graphone-order5-beam30-stress1-f1.00-s0",
        "context-l2-r2-stress1-f1.00-s0",
    ],
    "digit-recognizer-5k": ["cnn-epochs2-pixels-f1.00-s0", "svm-C5-hog-f1.00-s0", "knn-k3-hog-f0.10-s0"],
    "dsb-nuclei-tiles": ["unet-width8-steps150-f1.00-s0", "otsu-sig1-f1.00-s0"],
    "fine-food-reviews": ["nbsvm-n3-C1-text-f1.00-s0", "mnb-a1-text-word-f1.00-s0"],
    "movielens-genres": ["logistic-C1-f1.00-s0", "knn-k50-wdistance-svd64-f1.00-s0", "constant-f1.00-s0"],
}
"""Sampled teams of the competitions without a recipe (the first of each is of the strongest family)."""


def _sample(table: pd.DataFrame) -> list[str]:
    strong = table[table["model"] == "lgbm"]["team"].iloc[0]
    return list(dict.fromkeys([strong, table["team"].iloc[len(table) // 2], table["team"].iloc[-1]]))


def test_every_embedded_competition_is_sampled() -> None:
    assert {"titanic-lite", "credit-scoring", "chicago-ridership", "ames-house-prices"} <= set(WITH_RECIPE)
    assert set(EMBEDDED) == set(WITH_RECIPE) | set(SAMPLES) | set(SERIES)


@pytest.mark.parametrize("competition_id", sorted(set(EMBEDDED) - set(SERIES)))
def test_committed_leaderboard_is_the_current_population(competition_id: str, prepare_once) -> None:
    """Every team of the population is on the committed leaderboard and nothing else (else rebuild it)."""
    comp = load_competition(competition_id)
    task = load_task(comp, prepare_once(competition_id).public, get_metric(comp.metric.name))
    table = pd.read_csv(comp.leaderboard_path)
    committed, expected = set(table["team"]), {s.team for s in population(task, table["team"])}
    assert committed == expected, (
        f"{competition_id}: leaderboard.csv is stale;"
        f" rebuild it with `mlebench leaderboard -c {competition_id}`"
        f" (missing {sorted(expected - committed)[:5]}, extra {sorted(committed - expected)[:5]})"
    )


@pytest.mark.skipif(bool(MISSING), reason=f"the authoring extra is not installed ({', '.join(MISSING)})")
@pytest.mark.parametrize("competition_id", [*WITH_RECIPE, *sorted(SAMPLES)])
def test_sampled_entries_score_as_committed(competition_id: str, prepare_once) -> None:
    table = pd.read_csv(load_competition(competition_id).leaderboard_path)
    teams = SAMPLES.get(competition_id) or _sample(table)
    committed = table.set_index("team")["score"]
    scores = rescore(competition_id, teams, prepare_once(competition_id).out)
    assert {t: scores[t] for t in teams} == pytest.approx(
        {t: float(committed[t]) for t in teams}, abs=KERNEL_TOLERANCE
    )
    if competition_id in SAMPLES:  # the sample reaches the strong end: its first family is in the top 20
        assert table.set_index("team").loc[teams[0], "model"] in set(table["model"].iloc[:20])
