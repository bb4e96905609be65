"""Reference leaderboards: module doctests, a build on a tiny synthetic competition, the committed files."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from toy_declarations import toy_declaration

from authoring.leaderboards import COLUMNS, build_leaderboard, leaderboard_frame
from authoring.leaderboards import population as pop
from authoring.leaderboards.build import MIN_TEAMS, Entry
from authoring.leaderboards.images import extended_image_population
from authoring.leaderboards.outputs import Output
from authoring.leaderboards.segmentation import extended_segmentation_population
from authoring.leaderboards.solution import solution
from authoring.leaderboards.tabular import TabularTask
from authoring.leaderboards.text import strong_text_population
from authoring.leaderboards.transduction import extended_population
from graders.leaderboard import load_leaderboard
from graders.registry import get_metric
from mlebench_spec.declarations import load_competition
from mlebench_spec.paths import competitions_dir, private_dir, public_dir

MODULES = [
    "boosting", "build", "columns", "engineered", "graphones", "images", "models", "multilabel", "networks",
    "outputs", "population", "report", "rounds", "sampling", "scoring", "segmentation", "series", "signals",
    "solution", "tabular", "tasks", "text", "transduction",
]  # fmt: skip


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    module = importlib.import_module(f"authoring.leaderboards.{name}")
    assert doctest.testmod(module, optionflags=doctest.ELLIPSIS).failed == 0


@pytest.mark.parametrize(
    "population",
    [
        pop.tabular_population("classification", ["all", "numeric", "few"]),
        pop.tabular_population("regression", ["all", "numeric", "few"]),
        pop.tabular_population("classification", ["all"]),
        pop.tabular_population("classification", ["all", "text-word", "text-char"], text_only=True),
        pop.image_population(),
        pop.segmentation_population(),
        pop.transduction_population(),
        pop.series_population(),
        pop.tabular_population("classification", ["all", "text-word", "text-char"], text_only=True)
        + strong_text_population(),
        extended_image_population(),
        extended_segmentation_population(),
        extended_population(),
    ],
)
def test_populations_are_large_varied_and_uniquely_named(population) -> None:
    teams = [s.team for s in population]
    assert len(teams) >= MIN_TEAMS and len(set(teams)) == len(teams)
    assert len({s.model for s in population}) >= 5
    assert {0.1, 0.25}.issubset({s.train_fraction for s in population})
    assert len({s.seed for s in population}) >= 2


def test_team_name_reads_like_the_example() -> None:
    assert solution("hgb", learning_rate=0.1, max_depth=6).team == "hgb-lr0.1-d6-f1.00-s0"


def test_lower_is_better_puts_the_smallest_score_first() -> None:
    rows = [Entry(solution("a"), 0.3, 0.0), Entry(solution("b"), 0.1, 0.0), Entry(solution("c"), 0.2, 0.0)]
    table = leaderboard_frame(rows, higher_is_better=False)
    assert table["team"].tolist() == ["b-f1.00-s0", "c-f1.00-s0", "a-f1.00-s0"]
    assert table["rank"].tolist() == [1, 2, 3] and list(table.columns) == COLUMNS


_DECLARATION = toy_declaration("toy-binary", "tabular", 0.4, ["id", "y"], "roc_auc")


@pytest.fixture
def toy_root(tmp_path: Path) -> Path:
    """Make a checkout with one prepared synthetic competition (150 training rows, binary target)."""
    folder = tmp_path / "competitions" / "toy-binary"
    folder.mkdir(parents=True)
    (folder / "competition.yaml").write_text(_DECLARATION)
    (folder / "description.md").write_text("Predict y.\n")
    rng = np.random.default_rng(0)
    n = 250
    x = rng.normal(size=(n, 4))
    colour = rng.choice(["red", "green", "blue"], size=n)
    logit = 1.5 * x[:, 0] - x[:, 1] + 0.8 * (colour == "red") + 0.7 * rng.normal(size=n)
    frame = pd.DataFrame(x, columns=["a", "b", "c", "d"]).assign(colour=colour, y=(logit > 0).astype(int))
    frame.insert(0, "id", np.arange(1, n + 1))
    train, test = frame.iloc[:150], frame.iloc[150:]
    public = public_dir("toy-binary", tmp_path)
    private = private_dir("toy-binary", tmp_path)
    public.mkdir(parents=True)
    private.mkdir(parents=True)
    train.to_csv(public / "train.csv", index=False)
    test.drop(columns="y").to_csv(public / "test.csv", index=False)
    test[["id"]].assign(y=0.5).to_csv(public / "sample_submission.csv", index=False)
    test[["id", "y"]].to_csv(private / "answers.csv", index=False)
    return tmp_path


def test_build_on_a_synthetic_competition(toy_root: Path) -> None:
    path = build_leaderboard("toy-binary", root=toy_root)
    table = pd.read_csv(path)
    assert path == toy_root / "competitions" / "toy-binary" / "leaderboard.csv"
    assert list(table.columns) == COLUMNS and len(table) >= MIN_TEAMS
    assert table["rank"].tolist() == list(range(1, len(table) + 1))
    assert table["score"].is_monotonic_decreasing
    assert 0.75 < table["score"].iloc[0] < 1.0  # good, not perfect
    assert (table["score"] > 0.5).mean() > 0.6  # the sample submission (AUC 0.5) lands below bronze
    report = path.with_suffix(".md").read_text()
    assert "## Medal thresholds" in report and "| gold |" in report
    assert "private answers (perfect) | 1 | gold" in report


@pytest.mark.filterwarnings("ignore")
def test_randomised_solutions_are_deterministic(toy_root: Path) -> None:
    public = public_dir("toy-binary", toy_root)
    output = Output("probability", "id", ("y",), positive=1)
    task = TabularTask.load(public, output)
    for s in [
        solution("rf", fraction=0.5, seed=3, n_estimators=20),
        solution("mlp", hidden_layer_sizes=(8,), max_iter=50),
        solution("constant", strategy="stratified", seed=2),
    ]:
        pd.testing.assert_frame_equal(task.predict(s), task.predict(s))


def _committed() -> list[str]:
    """Embedded competitions with a built leaderboard (only their declarations are loaded)."""
    built = sorted(path.parent.name for path in competitions_dir().glob("*/leaderboard.csv"))
    return [cid for cid in built if load_competition(cid).complexity == "embedded"]


@pytest.mark.parametrize("competition_id", _committed())
def test_committed_leaderboard_is_ranked_and_large(competition_id: str) -> None:
    comp = load_competition(competition_id)
    metric = get_metric(comp.metric.name)
    table = pd.read_csv(comp.leaderboard_path)
    assert list(table.columns) == COLUMNS
    assert len(table) >= MIN_TEAMS and table["team"].is_unique
    assert table["rank"].tolist() == list(range(1, len(table) + 1))
    load_leaderboard(comp.leaderboard_path, metric.higher_is_better)  # raises unless best first
    assert table["score"].iloc[0] != metric.best  # no reference solution is perfect
    assert comp.leaderboard_path.with_suffix(".md").is_file()
