"""End-to-end runs of the baseline agent (``python main.py``) on synthetic public folders.

Each run checks the contract (submission with the sample's ids and columns, code and log saved)
and that the predictions are sensible for the task shape and better than chance.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.metrics import roc_auc_score

SHAPES = [
    "tabular_binary",
    "regression_dates",
    "multiclass_series",
    "image_classes",
    "segmentation",
    "seq2seq",
    "text_labels",
    "multilabel",
]


@pytest.fixture(scope="module")
def runs(public_folders, agent_runner, tmp_path_factory):
    """Run the baseline once per shape (lazily, cached for this module)."""
    cache = {}

    def get(shape):
        if shape not in cache:
            public, _ = public_folders[shape]
            cache[shape] = agent_runner("baseline", public, tmp_path_factory.mktemp(shape))
        return cache[shape]

    return get


def _decode(rle: str, shape: tuple[int, int]) -> np.ndarray:
    flat = np.zeros(shape[0] * shape[1], dtype=bool)
    nums = [int(v) for v in rle.split()]
    for start, length in zip(nums[::2], nums[1::2], strict=True):
        flat[start - 1 : start - 1 + length] = True
    return flat.reshape(shape[1], shape[0]).T


@pytest.mark.parametrize("shape", SHAPES)
def test_contract(shape, runs, public_folders):
    run = runs(shape)
    assert run.returncode == 0, run.stderr[-3000:]
    public, _ = public_folders[shape]
    sample = pd.read_csv(public / "sample_submission.csv", keep_default_na=False)
    sub = run.read()
    assert list(sub.columns) == list(sample.columns)
    assert sub.iloc[:, 0].astype(str).tolist() == sample.iloc[:, 0].astype(str).tolist()
    log = (run.logs_dir / "agent.log").read_text()
    assert "task:" in log and "wrote" in log
    assert json.loads((run.logs_dir / "summary.json").read_text())["validation"]
    assert (run.code_dir / "main.py").is_file() and (run.code_dir / "baseline" / "detect.py").is_file()


def test_tabular_binary_probabilities(runs, public_folders):
    _, truth = public_folders["tabular_binary"]
    sub = runs("tabular_binary").read()
    assert sub["bad"].between(0, 1).all() and sub["bad"].nunique() > 2
    assert roc_auc_score([truth[i] for i in sub["id"]], sub["bad"]) > 0.85


def test_regression_values(runs, public_folders):
    _, truth = public_folders["regression_dates"]
    sub = runs("regression_dates").read()
    pred, true = sub["rides"].to_numpy(), np.array([truth[d] for d in sub["date"]])
    assert np.isfinite(pred).all() and (pred > 0).all()
    assert np.mean(np.abs(pred - true)) < 0.6 * np.mean(np.abs(true - true.mean()))


def test_multiclass_probability_columns(runs, public_folders):
    _, truth = public_folders["multiclass_series"]
    sub = runs("multiclass_series").read()
    proba = sub[["a", "b", "c"]].to_numpy()
    assert np.allclose(proba.sum(axis=1), 1.0) and (proba >= 0).all()
    predicted = np.array(["a", "b", "c"])[proba.argmax(axis=1)]
    assert np.mean(predicted == np.array([truth[i] for i in sub["id"]])) > 0.8


def test_image_labels(runs, public_folders):
    _, truth = public_folders["image_classes"]
    sub = runs("image_classes").read()
    assert set(sub["label"]) <= {0, 1, 2}
    assert np.mean(sub["label"].to_numpy() == np.array([truth[i] for i in sub["id"]])) > 0.8


def test_segmentation_masks(runs, public_folders):
    _, truth = public_folders["segmentation"]
    sub = runs("segmentation").read()
    dice = []
    for tile, rle in zip(sub["id"], sub["rle"], strict=True):
        pred, true = _decode(rle, (24, 24)), truth[tile]
        total = pred.sum() + true.sum()
        dice.append(1.0 if total == 0 else 2 * (pred & true).sum() / total)
    assert np.mean(dice) > 0.7


def test_seq2seq_strings(runs, public_folders):
    _, truth = public_folders["seq2seq"]
    sub = runs("seq2seq").read()
    assert (sub["sound"].str.len() > 0).all()
    assert np.mean([truth[i] == s for i, s in zip(sub["id"], sub["sound"], strict=True)]) > 0.6


def test_text_labels(runs, public_folders):
    _, truth = public_folders["text_labels"]
    sub = runs("text_labels").read()
    assert set(sub["great"]) <= {0, 1}
    assert np.mean(sub["great"].to_numpy() == np.array([truth[i] for i in sub["id"]])) > 0.8


def test_multilabel_targets_after_the_first_three_reuse_their_model_choice(runs, public_folders):
    _, truth = public_folders["multilabel"]
    run = runs("multilabel")
    sub = run.read()
    validation = json.loads((run.logs_dir / "summary.json").read_text())["validation"]
    labels = [f"L{k}" for k in range(6)]
    assert [bool(validation[name]["scores"]) for name in labels] == [True] * 3 + [False] * 3
    firsts = [tuple(validation[name]["chosen"]) for name in labels[:3]]
    most = max(set(firsts), key=firsts.count)
    assert all(tuple(validation[name]["chosen"]) == most for name in labels[3:])
    for k, name in enumerate(labels):  # every label learned, selected or not
        assert roc_auc_score([truth[i][k] for i in sub["id"]], sub[name]) > 0.85, name


def test_same_seed_same_submission(public_folders, agent_runner, tmp_path, runs):
    public, _ = public_folders["tabular_binary"]
    again = agent_runner("baseline", public, tmp_path)
    assert again.submission.read_bytes() == runs("tabular_binary").submission.read_bytes()


def test_failure_exits_nonzero_without_submission(tmp_path, agent_runner):
    public = tmp_path / "public"
    public.mkdir()
    (public / "train.csv").write_text("id,y\n1,0\n2,1\n")
    (public / "sample_submission.csv").write_text("id,z\n3,0\n")  # target in neither train column nor values
    (public / "test.csv").write_text("id\n3\n")
    run = agent_runner("baseline", public, tmp_path / "work")
    assert run.returncode == 1
    assert not run.submission.exists()
    assert "agent failed" in (run.logs_dir / "agent.log").read_text()


def test_early_submission_comes_first_and_leaves_the_tuned_one_unchanged(
    public_folders, agent_runner, tmp_path, runs
):
    """With ``early_submission`` the agent writes a quick submission, then the one it writes by default."""
    public, _ = public_folders["tabular_binary"]
    default = runs("tabular_binary")
    logged = (default.logs_dir / "agent.log").read_text().split("AGENT_KWARGS ", 1)[1].split("; options")[0]
    run = agent_runner("baseline", public, tmp_path, {**json.loads(logged), "early_submission": True})
    assert run.returncode == 0
    log = (run.logs_dir / "agent.log").read_text()
    assert log.index("wrote the early submission") < log.index(f"wrote {run.submission}")
    assert run.submission.read_bytes() == default.submission.read_bytes()
    assert not list(run.submission.parent.glob(".*"))  # written by rename: no temporary file is left


@pytest.mark.parametrize(
    ("shape", "kwargs"),
    [
        ("tabular_binary", {}),  # k-fold: one worker task per fold
        ("multilabel", {"cv_below_rows": 100, "parallel_refit_secs": 0}),  # holdout; blends refit in two
        ("segmentation", {}),
        ("seq2seq", {}),
    ],
)
def test_two_workers_write_the_bytes_of_one_process(
    shape, kwargs, public_folders, agent_runner, fast_kwargs, tmp_path
):
    """On two CPUs, fitting in two worker processes gives the submission of fitting in the agent's own."""
    public, _ = public_folders[shape]
    options = {**fast_kwargs, **kwargs}
    alone = agent_runner("baseline", public, tmp_path / "alone", {**options, "workers": 1}, cpus=2)
    forked = agent_runner("baseline", public, tmp_path / "forked", options, cpus=2)
    assert alone.returncode == 0 and forked.returncode == 0, (alone.stderr + forked.stderr)[-3000:]
    assert forked.submission.read_bytes() == alone.submission.read_bytes()
