"""The grading benchmark's inputs: each Kaggle competition declares its real size and synthesizes them.

``benchmarks/grading.py`` asks every competition's ``fixture.py`` for answers and a submission at the
``real_size`` its ``competition.yaml`` declares; here they are built small and must validate and score.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from authoring.grading_inputs import scaled
from authoring.kaggle_standin import load_fixture
from graders.answers import with_derived
from graders.registry import get_metric
from graders.submission import read_answers, read_submission, validate
from mlebench_spec.declarations import RealSize, all_competition_ids, load_competition, parse_declaration
from mlebench_spec.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]
KAGGLE_IDS = sorted(p.parent.name for p in (ROOT / "competitions").glob("*/fixture.py"))

DECLARATION = """\
id: toy
name: Toy
version: 1
complexity: dev
category: tabular
dataset_size: "0.1 MB"
source: {kind: kaggle, slug: toy}
split: {method: random, test_fraction: 0.2}
submission: {id_column: id, columns: [id, y]}
metric: {name: accuracy, args: {}}
"""


def test_the_competitions_with_a_fixture_are_the_ones_with_a_real_size() -> None:
    declared = [c for c in all_competition_ids() if load_competition(c).real_size is not None]
    assert declared == KAGGLE_IDS


@pytest.mark.parametrize("competition_id", KAGGLE_IDS)
def test_grading_inputs_validate_and_score(competition_id: str, tmp_path: Path) -> None:
    comp = load_competition(competition_id)
    size = scaled(comp.real_size, 1e-2, floor=40)
    inputs = load_fixture(comp).grading_inputs(comp, size, np.random.default_rng(0))
    assert list(inputs.submission.columns) == comp.submission.columns
    stored = comp.submission.answers_file_layout  # as prepare writes them: derived columns not stored
    assert (
        list(inputs.answers.columns[: len(comp.submission.columns)]) == stored[: len(comp.submission.columns)]
    )
    inputs.submission.to_csv(tmp_path / "submission.csv", index=False)
    inputs.answers.to_csv(tmp_path / "answers.csv", index=False)
    metric = get_metric(comp.metric.name)
    args = {**comp.metric.args, **inputs.metric_args}
    submission = read_submission(tmp_path / "submission.csv")
    answers = with_derived(read_answers(tmp_path / "answers.csv"), comp.submission)
    y_true, y_pred = validate(submission, answers, comp.submission, metric, metric_args=args)
    assert math.isfinite(float(metric.fn(y_true, y_pred, **args)))


def test_scaled_shrinks_rows_or_whole_images() -> None:
    rows = RealSize(test_rows=1000, basis="est.")
    assert scaled(rows, 0.1).test_rows == 100
    assert scaled(rows, 1e-6).test_rows == 1
    assert scaled(rows, 1e-6, floor=60).test_rows == 60
    images = RealSize(test_rows=2, basis="est.", test_images=[(400, 100), (100, 900)])
    assert scaled(images, 0.25).test_images == [(200, 50), (50, 450)]
    assert scaled(images, 0.25).test_rows == 2


@pytest.mark.parametrize(
    ("block", "message"),
    [
        ("real_size: {test_rows: 0, basis: x}", "real_size.test_rows"),
        ("real_size: {test_rows: 5, basis: ''}", "real_size.basis"),
        ("real_size: {test_rows: 5, basis: x, colour: red}", "unknown key 'real_size.colour'"),
        ("real_size: {test_rows: 5, basis: x, classes: null}", "real_size.classes"),
        ("real_size: {test_rows: 2, basis: x, test_images: [[10, 10]]}", r"one \(height, width\) per answer"),
    ],
)
def test_real_size_is_strict(block: str, message: str, tmp_path: Path) -> None:
    path = tmp_path / "toy" / "competition.yaml"
    path.parent.mkdir()
    path.write_text(DECLARATION + block + "\n")
    with pytest.raises(ConfigError, match=message):
        parse_declaration(path)
