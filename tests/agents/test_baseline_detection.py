"""Unit tests of the baseline agent's task inference (no subprocess, no training)."""

from __future__ import annotations

import doctest
import importlib
import sys
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "agents" / "baseline"))

from baseline.columns import column_kind, plan_columns  # noqa: E402
from baseline.data import load_public  # noqa: E402
from baseline.detect import detect_task, find_class_column, looks_like_rle  # noqa: E402
from baseline.env import AgentEnv, Options  # noqa: E402
from baseline.metrics import metric_hint  # noqa: E402
from baseline.rle import rle_decode, rle_encode  # noqa: E402
from baseline.seq2seq import Aligner, tokenize_targets  # noqa: E402

MODULES = [
    "columns", "data", "detect", "env", "features", "images", "metrics", "models", "rle",
    "segmentation", "selection", "seq2seq", "submission", "tables", "tabular", "run", "parallel",
]  # fmt: skip


@pytest.mark.parametrize("module", MODULES)
def test_module_doctests(module):
    result = doctest.testmod(importlib.import_module(f"baseline.{module}"))
    assert result.failed == 0


EXPECTED = {
    # shape: (mode, kind, output, metric)
    "tabular_binary": ("direct", "binary", "proba_positive", "roc_auc"),
    "regression_dates": ("direct", "regression", "values", "mae"),
    "multiclass_series": ("class_proba", "multiclass", "proba_columns", "log_loss"),
    "image_classes": ("direct", "multiclass", "labels", "accuracy"),
    "segmentation": ("direct", "segmentation", "rle", "dice"),
    "seq2seq": ("direct", "seq2seq", "text", "exact_match"),
    "text_labels": ("direct", "binary", "labels", "accuracy"),
}


@pytest.mark.parametrize("shape", sorted(EXPECTED))
def test_detect_task_per_shape(shape, public_folders):
    public, _ = public_folders[shape]
    task = detect_task(load_public(public))
    (spec,) = task.targets
    assert (task.mode, spec.kind, spec.output, spec.metric) == EXPECTED[shape]


def test_detection_details(public_folders):
    data = load_public(public_folders["regression_dates"][0])
    task = detect_task(data)
    assert task.temporal_col == "date"
    assert task.targets[0].log_target  # strictly positive, right-skewed
    data = load_public(public_folders["multiclass_series"][0])
    task = detect_task(data)
    assert task.class_col == "who" and task.targets[0].classes == ["a", "b", "c"]
    assert [p.name for p in data.aux] == ["series"]
    data = load_public(public_folders["seq2seq"][0])
    assert detect_task(data).targets[0].input_col == "word"


def test_column_plan_types_each_column(public_folders):
    data = load_public(public_folders["tabular_binary"][0])
    plan = plan_columns(data.train, data.test, exclude={"bad"}, id_col="id")
    assert plan.numeric == ["x1", "x2"]
    assert plan.categorical == ["colour"] and plan.date == ["signup"] and plan.text == []
    assert plan.dropped == {"id": "id column"}
    text = load_public(public_folders["text_labels"][0])
    plan = plan_columns(text.train, text.test, exclude={"great"}, id_col="id")
    assert plan.text == ["review"] and plan.categorical == ["store"]


@pytest.mark.parametrize(
    ("values", "kind"),
    [
        ([1, 2, None], "numeric"),
        (["1.5", "2", "3"], "numeric"),
        (["2021-01-01", "2021-02-03"], "date"),
        (["x", "y"] * 10, "categorical"),
        (["A1B2C3", "Z9Y8X7", "Q1W2E3", "R4T5Y6"], "drop"),
        ([None, None], "drop"),
        (["same"] * 4, "drop"),
    ],
)
def test_column_kind(values, kind):
    assert column_kind(pd.Series(values))[0] == kind


def test_rle_detection_and_round_trip():
    assert looks_like_rle(pd.Series(["1 2 10 3", None, "7 1"]))
    assert not looks_like_rle(pd.Series(["1 2 3", "4 5"]))
    assert not looks_like_rle(pd.Series(["AH0 K", "B"]))
    rng = np.random.default_rng(0)
    mask = rng.random((9, 7)) > 0.6
    assert np.array_equal(rle_decode(rle_encode(mask), mask.shape), mask)
    # Column-major: pixel 2 is the one below the top-left corner.
    assert rle_decode("2 1", (3, 3))[1, 0]


def test_find_class_column_needs_coverage():
    frame = pd.DataFrame({"id": [1, 2, 3], "c": ["x", "y", "z"], "d": ["p", "q", "x"]})
    assert find_class_column(frame, ["x", "y", "z"], exclude={"id"}) == "c"
    assert find_class_column(frame, ["u", "v", "w"], exclude={"id"}) is None


def test_metric_hint_prefers_the_metric_section():
    text = "Accuracy of the sensors was poor.\n## Metric\n\nRoot mean squared logarithmic error."
    assert metric_hint(text) == "rmsle"
    assert metric_hint("Evaluation: multiclass log loss") == "log_loss"


def test_options_from_kwargs_reports_unknown_keys():
    options, unknown = Options.from_kwargs({"max_train_rows": "100", "select_models": "false", "bogus": 1})
    assert options.max_train_rows == 100 and options.select_models is False
    assert unknown == ["bogus"]


def test_agent_env_rejects_bad_kwargs(tmp_path):
    env = {k: str(tmp_path) for k in ("DATA_DIR", "SUBMISSION_DIR", "CODE_DIR", "LOGS_DIR")}
    assert AgentEnv.from_environ({**env, "AGENT_KWARGS": '{"a": 1}', "SEED": "3"}).seed == 3
    with pytest.raises(SystemExit, match="not valid JSON"):
        AgentEnv.from_environ({**env, "AGENT_KWARGS": "{oops"})
    with pytest.raises(SystemExit, match="DATA_DIR"):
        AgentEnv.from_environ({"AGENT_KWARGS": "{}"})


def test_aligner_pairs_letters_with_tokens():
    tokens, joiner = tokenize_targets(["K AE T", "B AE T", "K AE B"])
    assert joiner == " "
    alignments = Aligner(iterations=2).fit(["cat", "bat", "cab"], tokens)
    assert alignments[0] == [("K",), ("AE",), ("T",)]
