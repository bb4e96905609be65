"""Multi-label reference solutions (authoring.leaderboards.multilabel) on a synthetic competition."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score
from toy_declarations import toy_declaration

from authoring.leaderboards.multilabel import MultiLabelTask, read_interactions
from authoring.leaderboards.solution import solution
from authoring.leaderboards.tasks import load_task
from graders.registry import get_metric
from mlebench_spec.declarations import load_competition
from mlebench_spec.paths import public_dir

_DECLARATION = toy_declaration(
    "toy-tags", "text", 0.3, ["item", "red", "blue", "rare"], "roc_auc_mean_columns"
)
LABELS = ["red", "blue", "rare"]


@pytest.fixture(scope="module")
def toy(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, pd.DataFrame]:
    """Make a checkout with one prepared multi-label competition and return it with the test answers.

    ``red`` shows in the titles, ``blue`` only in who rated the item (users who like blue rate blue
    items), ``rare`` is seldom set.
    """
    root = tmp_path_factory.mktemp("toy-tags")
    folder = root / "competitions" / "toy-tags"
    folder.mkdir(parents=True)
    (folder / "competition.yaml").write_text(_DECLARATION)
    (folder / "description.md").write_text("Tag the items.\n")
    rng = np.random.default_rng(0)
    n = 400
    red, blue, rare = rng.random(n) < 0.4, rng.random(n) < 0.5, rng.random(n) < 0.08
    words = np.array(["alpha", "beta", "gamma", "delta"])
    titles = [
        " ".join([*rng.choice(words, 2), *(["crimson"] if r and rng.random() < 0.8 else [])]) for r in red
    ]
    items = pd.DataFrame(
        {"item": np.arange(100, 100 + n), "title": titles, "year": rng.integers(1950, 2020, n)}
    )
    ratings = []
    for user in range(60):
        likes_blue = user % 2 == 0
        pool = np.flatnonzero(blue == likes_blue)
        for item in rng.choice(pool, 15, replace=False):
            ratings.append((user, 100 + item, float(rng.integers(1, 6))))
    answers = pd.DataFrame({"item": items["item"], "red": red, "blue": blue, "rare": rare}).astype("int64")
    train = items.iloc[:280].merge(answers)
    test, truth = items.iloc[280:], answers.iloc[280:]
    public = public_dir("toy-tags", root)
    public.mkdir(parents=True)
    train.to_csv(public / "train.csv", index=False)
    test.to_csv(public / "test.csv", index=False)
    pd.DataFrame(ratings, columns=["user", "item", "stars"]).to_csv(public / "ratings.csv", index=False)
    test[["item"]].assign(red=0.5, blue=0.5, rare=0.5).to_csv(public / "sample_submission.csv", index=False)
    return root, truth


def _auc(frame: pd.DataFrame, truth: pd.DataFrame, label: str) -> float:
    merged = truth.merge(frame.astype({"item": "int64"}), on="item", suffixes=("", "_score"))
    return float(roc_auc_score(merged[label], merged[f"{label}_score"]))


def _task(root: Path) -> MultiLabelTask:
    comp = load_competition("toy-tags", root)
    task = load_task(comp, public_dir("toy-tags", root), get_metric(comp.metric.name))
    assert isinstance(task, MultiLabelTask)
    return task


def test_the_task_is_recognised_and_reads_the_interactions(toy) -> None:
    root, _ = toy
    task = _task(root)
    assert task.labels == tuple(LABELS) and task.targets.shape == (280, 3)
    assert task.interactions is not None and list(task.interactions.columns) == ["id", "key", "value"]


def test_each_feature_block_carries_its_signal(toy) -> None:
    root, truth = toy
    task = _task(root)
    constant = task.predict(solution("constant", "none"))
    assert list(constant.columns) == ["item", *LABELS] and len(constant) == len(truth)
    assert _auc(constant, truth, "red") == 0.5
    assert np.isfinite(task.predict(solution("logistic", "numeric", C=1.0))[LABELS].to_numpy()).all()
    words = task.predict(solution("logistic", "word", C=1.0))
    assert _auc(words, truth, "red") > 0.8 and _auc(words, truth, "blue") < 0.7
    raters = task.predict(solution("knn", "svd16", n_neighbors=10, weights="distance"))
    assert _auc(raters, truth, "blue") > 0.9
    both = task.predict(solution("logistic", "all", C=1.0))
    assert min(_auc(both, truth, "red"), _auc(both, truth, "blue")) > 0.8


def test_multi_output_families_boosters_and_blends_give_one_score_per_label(toy) -> None:
    root, truth = toy
    task = _task(root)
    for s in (
        solution("rf", "numeric+stats+svd16", n_estimators=20),
        solution("mlp", "stats+svd16", hidden_layer_sizes=(8,), max_iter=50),
        solution("hgb", "numeric+stats+svd16", 0.1, 0, learning_rate=0.1, max_iter=10),  # rare may be absent
        solution("blend", "all", members=("logistic", "knn")),
    ):
        frame = task.predict(s)
        assert frame.shape == (len(truth), 4) and np.isfinite(frame[LABELS].to_numpy()).all(), s.team
    pytest.importorskip("lightgbm")
    frame = task.predict(solution("lgbm", "numeric+stats+svd16", lr=0.1, leaves=7, rounds=20))
    assert _auc(frame, truth, "blue") > 0.8


@pytest.mark.filterwarnings("ignore")
def test_randomised_solutions_are_deterministic(toy) -> None:
    root, _ = toy
    for s in (solution("rf", "svd16", 0.5, 3, n_estimators=10), solution("mlp", "svd16", max_iter=30)):
        pd.testing.assert_frame_equal(_task(root).predict(s), _task(root).predict(s))


def test_interaction_files_must_be_unambiguous(tmp_path: Path) -> None:
    assert read_interactions(tmp_path, "item") is None
    pd.DataFrame({"item": [1], "user": ["u"]}).to_csv(tmp_path / "views.csv", index=False)
    with pytest.raises(ValueError, match="numeric value column"):
        read_interactions(tmp_path, "item")
    pd.DataFrame({"item": [1], "user": ["u"], "stars": [3]}).to_csv(tmp_path / "views.csv", index=False)
    pd.DataFrame({"item": [1], "shop": ["s"], "price": [3]}).to_csv(tmp_path / "sales.csv", index=False)
    with pytest.raises(ValueError, match="several interaction files"):
        read_interactions(tmp_path, "item")
