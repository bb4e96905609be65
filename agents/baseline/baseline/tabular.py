"""Supervised learning on rows: classification and regression from table, text, series and pixels.

Builds the feature frames (``train.csv``/``test.csv`` plus auxiliary-table aggregates, pixel
features when image folders exist), encodes the target, chooses a model on an internal validation
split (:mod:`baseline.selection`), refits it on all rows and formats the test predictions the way
the sample submission wants them.
"""

from __future__ import annotations

import logging
import time
from collections import Counter
from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

from .columns import plan_columns
from .data import PublicData
from .detect import TargetSpec, TaskSpec
from .env import AgentEnv, Options
from .images import common_shape, pixel_matrix
from .metrics import score
from .models import Problem, make_candidates
from .parallel import run_all, workers_for
from .selection import make_folds, prepare_all, select, to_metric_input
from .tables import aux_features, join_aux

log = logging.getLogger("baseline")
SMOOTHING = (0.0, 0.001, 0.003, 0.01, 0.03, 0.1)


@dataclass
class Frames:
    """Feature frames and optional pixel matrices for train and test rows (aligned)."""

    train: pd.DataFrame
    test: pd.DataFrame
    train_pixels: np.ndarray | None = None
    test_pixels: np.ndarray | None = None


def build_frames(data: PublicData, task: TaskSpec, options: Options) -> Frames:
    """Join auxiliary-table features and load pixel features (when ids name image files)."""
    train, test = data.train.copy(), data.test.copy()
    for pair in data.aux:
        result = aux_features(pair, task.id_col)
        if result is None:
            log.info(
                "auxiliary table %s: not keyed by %r or no numeric column; ignored", pair.name, task.id_col
            )
            continue
        train_feats, test_feats, note = result
        log.info("auxiliary table %s", note)
        train, test = join_aux(train, train_feats, task.id_col), join_aux(test, test_feats, task.id_col)
    frames = Frames(train, test)
    if data.has_images and task.id_col in train.columns and task.id_col in test.columns:
        train_keys, test_keys = train[task.id_col].astype(str), test[task.id_col].astype(str)
        cover = (
            train_keys.isin(data.train_images.keys()).mean(),
            test_keys.isin(data.test_images.keys()).mean(),
        )
        if min(cover) >= 0.99:
            paths = [data.train_images[k] for k in train_keys]
            shape = common_shape(paths, options.image_max_side)
            frames.train_pixels = pixel_matrix(paths, shape)
            frames.test_pixels = pixel_matrix([data.test_images[k] for k in test_keys], shape)
            log.info(
                "pixel features: images resized to %s -> %d features", shape, frames.train_pixels.shape[1]
            )
        else:
            log.info(
                "image folders present but ids match only %.0f%%/%.0f%% of files; no pixels",
                *(100 * c for c in cover),
            )
    return frames


def _encode_target(spec: TargetSpec, values: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """Return (row mask of usable rows, encoded target)."""
    if spec.kind == "regression":
        y = pd.to_numeric(values, errors="coerce")
        return y.notna().to_numpy(), y.to_numpy(dtype=float)
    index = {str(c): i for i, c in enumerate(spec.classes)}
    codes = values.map(lambda v: index.get(str(v)) if pd.notna(v) else None)
    mask = codes.notna().to_numpy()
    return mask, codes.fillna(-1).to_numpy(dtype=int)


def _label_values(classes: list, codes: np.ndarray) -> np.ndarray:
    labels = np.asarray(classes, dtype=object)[codes]
    if all(isinstance(c, (int, np.integer, float, np.floating)) and float(c).is_integer() for c in classes):
        return labels.astype(np.int64)
    return labels


def _smooth(pred: np.ndarray, eps: float) -> np.ndarray:
    return (1 - eps) * pred + eps / pred.shape[1]


def fit_predict(
    env: AgentEnv,
    options: Options,
    task: TaskSpec,
    spec: TargetSpec,
    frames: Frames,
    decisions: dict | None = None,
) -> tuple[dict, dict]:
    """Train for one target; return (submission columns → test values, validation report).

    ``decisions`` (shared by the targets of one task) keeps each model selection's outcome by target kind,
    metric and candidates: once ``options.select_first_targets`` targets of a kind have selected, the
    next ones fit the choice made most often, without validating every candidate again.
    """
    workers = options.worker_count(env.cpus)
    mask, y = _encode_target(spec, frames.train[spec.name])
    rows = np.flatnonzero(mask)
    order = None
    if task.temporal_col:
        order_all = pd.to_datetime(frames.train[task.temporal_col], errors="coerce").to_numpy()
    if len(rows) > options.max_train_rows:
        if task.temporal_col:
            rows = rows[np.argsort(order_all[rows], kind="stable")][-options.max_train_rows :]
        else:
            rows = np.sort(
                np.random.default_rng(env.seed).choice(rows, options.max_train_rows, replace=False)
            )
        log.info("training rows capped at %d (max_train_rows)", len(rows))
    train = frames.train.iloc[rows].reset_index(drop=True)
    y = y[rows]
    pixels = frames.train_pixels[rows] if frames.train_pixels is not None else None
    if task.temporal_col:
        order = order_all[rows]
    exclude = set(task.submission_columns[1:]) | {spec.name}
    plan = plan_columns(train, frames.test, exclude=exclude, id_col=task.id_col)
    log.info("columns: %s", plan.summary())
    problem = Problem(spec.kind, len(spec.classes), spec.log_target, spec.metric, env.seed)
    candidates = make_candidates(plan, problem, options, 0 if pixels is None else pixels.shape[1])
    if not options.select_models:
        candidates = candidates[:1]
    folds = make_folds(y, problem, options, order)
    log.info(
        "validation: %s, %d fold(s), metric %s; candidates %s",
        "time-ordered holdout"
        if order is not None
        else ("k-fold CV" if len(folds) > 1 else "random holdout"),
        len(folds),
        problem.metric,
        [c.name for c in candidates],
    )
    made = (decisions if decisions is not None else {}).setdefault(
        (spec.kind, problem.metric, tuple(c.name for c in candidates)), []
    )
    if len(candidates) > 1 and 0 < options.select_first_targets <= len(made):
        (chosen, eps), times = Counter(made).most_common(1)[0]
        scores: dict = {}
        fit_seconds = 0.0
        log.info("model selection: %s, as %d of the first %d such targets chose", chosen, times, len(made))
    else:
        budget = env.time_left() * 0.5 if env.time_left() != float("inf") else float("inf")
        selection = select(
            candidates, train, y, pixels, problem, folds, time.monotonic() + budget, time.monotonic, workers
        )
        eps = _tune_smoothing(selection, y, problem) if problem.metric == "log_loss" else 0.0
        chosen, scores = tuple(selection.chosen), selection.scores
        made.append((chosen, eps))
        fit_seconds = sum(selection.seconds.get(name, 0.0) for name in chosen)
    by_name = {c.name: c for c in candidates}
    final = [by_name[name] for name in chosen]
    if fit_seconds < options.parallel_refit_secs:
        workers = 1  # starting processes would cost more than it saves
    if workers_for(workers, len(final)) > 1:
        prepare_all(final, train)
    preds = run_all(
        [partial(_refit_predict, c, train, y, pixels, frames.test, frames.test_pixels) for c in final],
        workers,
    )
    pred = np.mean(preds, axis=0)
    log.info("final model: %s refitted on %d rows", " + ".join(chosen), len(train))
    report = {"metric": problem.metric, "scores": scores, "chosen": list(chosen), "smoothing": eps}
    return _format(spec, pred, eps), report


def _refit_predict(candidate, train: pd.DataFrame, y: np.ndarray, pixels, test: pd.DataFrame, test_pixels):
    return candidate.fit(train, y, pixels).predict(test, test_pixels)


def _tune_smoothing(selection, y: np.ndarray, problem: Problem) -> float:
    covered = selection.covered
    results = {e: score("log_loss", y[covered], _smooth(selection.oof[covered], e)) for e in SMOOTHING}
    best = min(results, key=results.get)
    log.info(
        "probability smoothing towards uniform: log loss by eps %s -> eps %g",
        {k: round(v, 4) for k, v in results.items()},
        best,
    )
    return best


def _format(spec: TargetSpec, pred: np.ndarray, eps: float) -> dict:
    if spec.output == "values":
        return {spec.name: pred.astype(float)}
    if spec.output == "proba_positive":
        return {spec.name: pred[:, 1].astype(float)}
    if spec.output == "proba_columns":
        proba = _smooth(pred, eps)
        proba = proba / proba.sum(axis=1, keepdims=True)
        return {str(c): proba[:, i] for i, c in enumerate(spec.classes)}
    return {spec.name: _label_values(spec.classes, pred.argmax(axis=1))}


__all__ = ["Frames", "build_frames", "fit_predict", "to_metric_input"]
