"""Recognise what kind of task a competition is, from its metric and its public files, and load it.

Every task object offers the same two methods to :mod:`.build`:

- ``population() -> list[Solution]``: the reference solutions to train;
- ``predict(solution) -> DataFrame``: fit one solution on the public training data and return its
  submission for the public test data (id column first, then the answer columns).

The rules, checked in order (after the MLOps set's own tasks, :mod:`.mlops`, which are methods, not models):

1. the metric grades run-length encoded masks → :class:`~.segmentation.SegmentationTask`;
2. ``train_series.csv`` is present (long-format series) → :class:`~.series.SeriesTask`;
3. a ``train/`` folder of images is present → :class:`~.images.ImageTask`;
4. the metric scores several numeric columns that are all 0/1 columns of ``train.csv`` (one per
   label) → :class:`~.multilabel.MultiLabelTask`;
5. labels or text are graded and the training answers are mostly distinct strings (an answer is
   generated, not chosen from a few classes) → :class:`~.transduction.TransductionTask`;
6. anything else → :class:`~.tabular.TabularTask`, wrapped in an
   :class:`~.engineered.EngineeredTask` when the competition has a feature-engineering recipe.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

import pandas as pd

from authoring.leaderboards.engineered import EngineeredTask, recipe_for
from authoring.leaderboards.images import ImageTask
from authoring.leaderboards.mlops import mlops_task
from authoring.leaderboards.multilabel import MultiLabelTask
from authoring.leaderboards.outputs import infer_output
from authoring.leaderboards.segmentation import SegmentationTask
from authoring.leaderboards.series import SeriesTask
from authoring.leaderboards.solution import Solution
from authoring.leaderboards.tabular import TabularTask
from authoring.leaderboards.transduction import TransductionTask
from graders.kinds import LABELS, NUMERIC_COLUMNS, RLE_MASK, TEXT
from graders.registry import Metric
from mlebench_spec.declarations import Competition

__all__ = ["Task", "load_task"]


class Task(Protocol):
    """What :mod:`.build` needs from a task."""

    kind: str

    def population(self) -> list[Solution]:
        """Return the reference solutions."""

    def predict(self, solution: Solution) -> pd.DataFrame:
        """One solution's submission frame."""


def load_task(comp: Competition, public: Path, metric: Metric) -> Task:
    """Load the public data of ``comp`` as the task kind its metric and files call for."""
    id_column, columns = comp.submission.id_column, comp.submission.target_columns
    mlops = mlops_task(comp.id, public)
    if mlops is not None:
        return mlops
    if metric.kind is RLE_MASK:
        return SegmentationTask.load(public, id_column, columns[0])
    if (public / "train_series.csv").is_file():
        labels = pd.read_csv(public / "train.csv")
        target = labels[next(c for c in labels.columns if c != id_column)].astype(str)
        return SeriesTask.load(public, infer_output(id_column, columns, metric.kind, target))
    if (public / "train").is_dir():
        train = pd.read_csv(public / "train.csv")
        target = train[columns[0]]
        return ImageTask.load(public, infer_output(id_column, columns, metric.kind, target))
    train = pd.read_csv(public / "train.csv")
    if metric.kind is NUMERIC_COLUMNS and len(columns) > 1 and set(columns) <= set(train.columns):
        if all(train[c].isin((0, 1)).all() for c in columns):
            return MultiLabelTask.load(public, id_column, list(columns))
    target = train[columns[0]]
    generated = not pd.api.types.is_numeric_dtype(target) and target.nunique() > len(train) / 2
    if metric.kind in (LABELS, TEXT) and generated:
        return TransductionTask.load(public, id_column, columns[0])
    task = TabularTask.load(public, infer_output(id_column, columns, metric.kind, target))
    recipe = recipe_for(comp.id)
    return EngineeredTask.create(task, recipe, metric, public) if recipe else task
