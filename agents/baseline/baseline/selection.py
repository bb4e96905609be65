"""Internal validation: split the training rows, score every candidate, keep the best (or a blend).

* Time-ordered data (test dates after train dates): the latest ``holdout_fraction`` of rows.
* Small data (< ``cv_below_rows``): k-fold cross-validation (stratified for classification).
* Otherwise: one random (stratified) holdout.

After scoring, the average of the two best candidates is scored too; the winner is refitted on all
training rows by the caller.
"""

from __future__ import annotations

import logging
import time
from dataclasses import dataclass, field
from functools import partial

import numpy as np
import pandas as pd
from sklearn.model_selection import KFold, StratifiedKFold, train_test_split

from .env import Options
from .metrics import better, score
from .models import Problem
from .parallel import run_all, workers_for

log = logging.getLogger("baseline")


def make_folds(y: np.ndarray, problem: Problem, options: Options, order: np.ndarray | None) -> list:
    """Return ``[(train_idx, valid_idx), ...]`` following the module's rules."""
    n = len(y)
    idx = np.arange(n)
    if order is not None:
        ranked = idx[np.argsort(order, kind="stable")]
        cut = int(round(n * (1 - options.holdout_fraction)))
        return [(np.sort(ranked[:cut]), np.sort(ranked[cut:]))]
    stratify = problem.is_classification and np.bincount(y.astype(int)).min() >= options.cv_folds
    if n < options.cv_below_rows:
        cls = StratifiedKFold if stratify else KFold
        return list(cls(options.cv_folds, shuffle=True, random_state=problem.seed).split(idx, y))
    tr, va = train_test_split(
        idx, test_size=options.holdout_fraction, random_state=problem.seed, stratify=y if stratify else None
    )
    return [(np.sort(tr), np.sort(va))]


def to_metric_input(problem: Problem, pred: np.ndarray) -> np.ndarray:
    """Turn a probability matrix / value vector into what ``problem.metric`` scores."""
    if not problem.is_classification:
        return pred
    if problem.metric == "roc_auc":
        return pred[:, 1]
    if problem.metric == "log_loss":
        return pred
    return pred.argmax(axis=1)


@dataclass
class Selection:
    """The chosen candidate names (one, or two to average), every validation score, fit seconds."""

    chosen: list[str]
    scores: dict[str, float]
    metric: str
    oof: np.ndarray
    covered: np.ndarray
    seconds: dict[str, float] = field(default_factory=dict)


def select(
    candidates: list,
    frame: pd.DataFrame,
    y: np.ndarray,
    pixels: np.ndarray | None,
    problem: Problem,
    folds: list,
    deadline: float,
    clock,
    cpus: int = 1,
) -> Selection:
    """Score candidates on ``folds``; stop trying new ones once ``clock() > deadline``.

    With ``cpus`` > 1 the fits run in forked workers (:func:`baseline.parallel.run_all`): one task per fold
    (each fitting the candidates in order) when there are several folds, else one per candidate (their
    shared encoders fitted here first, see :func:`prepare_all`). Every candidate but the first is
    skipped when it would start after the deadline; one skipped in any fold is dropped.
    """
    covered = np.zeros(len(y), dtype=bool)
    for _, va in folds:
        covered[va] = True
    if len(folds) == 1 and workers_for(cpus, len(candidates)) > 1:
        prepare_all(candidates, frame.iloc[folds[0][0]])
        tasks = [
            partial(_fit_fold, [cand], frame, y, pixels, folds[0], deadline, clock, first=i == 0)
            for i, cand in enumerate(candidates)
        ]
        by_fold = [{k: v for part in run_all(tasks, cpus) for k, v in part.items()}]
    else:
        tasks = [partial(_fit_fold, candidates, frame, y, pixels, fold, deadline, clock) for fold in folds]
        by_fold = run_all(tasks, cpus)
    oof: dict[str, np.ndarray] = {}
    scores: dict[str, float] = {}
    seconds: dict[str, float] = {}
    for cand in candidates:
        if not all(cand.name in parts for parts in by_fold):
            log.info("time budget for model selection used up; skipping %s", cand.name)
            continue
        pred = None
        seconds[cand.name] = sum(parts[cand.name][1] for parts in by_fold)
        for (_, va), parts in zip(folds, by_fold, strict=True):
            part = parts[cand.name][0]
            if pred is None:
                pred = np.zeros((len(y),) + part.shape[1:])
            pred[va] = part
        oof[cand.name] = pred
        scores[cand.name] = score(problem.metric, y[covered], to_metric_input(problem, pred[covered]))
        log.info(
            "validation %s of %s: %.5f (%d rows, %d fold(s))",
            problem.metric,
            cand.name,
            scores[cand.name],
            covered.sum(),
            len(folds),
        )
    ranked = sorted(scores, key=lambda k: scores[k], reverse=_higher(problem.metric))
    chosen, chosen_oof = [ranked[0]], oof[ranked[0]]
    if len(ranked) >= 2:
        a, b = ranked[:2]
        blend = (oof[a] + oof[b]) / 2
        blend_name = f"blend({a}+{b})"
        scores[blend_name] = score(problem.metric, y[covered], to_metric_input(problem, blend[covered]))
        log.info("validation %s of %s: %.5f", problem.metric, blend_name, scores[blend_name])
        if better(problem.metric, scores[blend_name], scores[a]):
            chosen, chosen_oof = [a, b], blend
    return Selection(
        chosen=chosen, scores=scores, metric=problem.metric, oof=chosen_oof, covered=covered, seconds=seconds
    )


def _higher(metric: str) -> bool:
    return better(metric, 1.0, 0.0)


def prepare_all(candidates: list, frame: pd.DataFrame) -> None:
    """Fit here what candidates about to be fitted on ``frame`` in separate workers share (encoders)."""
    for cand in candidates:
        cand.prepare(frame)


def _fit_fold(
    candidates: list,
    frame: pd.DataFrame,
    y: np.ndarray,
    pixels: np.ndarray | None,
    fold: tuple,
    deadline: float,
    clock,
    first: bool = True,
) -> dict[str, tuple[np.ndarray, float]]:
    """Return the validation predictions of ``candidates`` on one fold and their fit seconds, by name.

    A candidate that is not ``first`` and would start after the deadline is skipped with the rest.
    """
    tr, va = fold
    parts = {}
    for cand in candidates:
        if not (first and not parts) and clock() > deadline:
            break
        started = time.monotonic()
        cand.fit(frame.iloc[tr], y[tr], None if pixels is None else pixels[tr])
        pred = cand.predict(frame.iloc[va], None if pixels is None else pixels[va])
        parts[cand.name] = (pred, time.monotonic() - started)
    return parts
