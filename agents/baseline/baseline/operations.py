"""Operations tasks that are not "fit train, predict test": monitoring, change detection, A/B analysis.

Recognised by the shape of the public files (never by the competition's name), each gets a textbook
approach an ML engineer would reach for first:

- a reference table with a model ``score`` and ``label`` plus a ``production`` table in ``batch``es
  (no label): the model's accuracy per batch by **importance weighting** — a logistic domain classifier
  tells reference rows from the batch's, and the reference rows' correctness is averaged with the
  odds as weights (clipped);
- a long ``stream`` table (id, position, channels) with labelled change points in ``train.csv``: a
  **two-window mean-shift detector** on each standardised channel, its threshold tuned for F1 on the
  labelled streams;
- ``experiments`` (designs with a treatment share) and per-user ``users`` logs: a **sample-ratio check**
  (binomial test at 0.001: invalid), then Welch's 95 % interval for the difference of mean revenue, and
  ship when it lies above zero.
"""

from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pandas as pd
from scipy import stats
from sklearn.linear_model import LogisticRegression

log = logging.getLogger("baseline")

__all__ = ["solve_operations"]


def solve_operations(data_dir: Path) -> tuple[pd.DataFrame, dict] | None:
    """Return the submission and a report for an operations task, or None when the files are not one."""
    files = {p.name for p in data_dir.iterdir()}
    if {"reference.csv", "production.csv"} <= files:
        return _monitoring(data_dir)
    if {"stream.csv", "train.csv", "test.csv"} <= files:
        return _change_points(data_dir)
    if {"experiments.csv", "users.csv"} <= files:
        return _ab_tests(data_dir)
    return None


# ------------------------------------------------------------------------------------------ monitoring


def _features(frame: pd.DataFrame, numeric: list[str], categorical: dict[str, list[str]]) -> np.ndarray:
    parts = [frame[numeric].to_numpy(float)]
    for column, levels in categorical.items():
        parts.append(np.column_stack([(frame[column].astype(str) == v).to_numpy(float) for v in levels]))
    return np.column_stack(parts)


def _monitoring(data_dir: Path) -> tuple[pd.DataFrame, dict]:
    reference = pd.read_csv(data_dir / "reference.csv")
    production = pd.read_csv(data_dir / "production.csv")
    sample = pd.read_csv(data_dir / "sample_submission.csv")
    id_col, target = sample.columns[0], sample.columns[1]
    score_col = "score" if "score" in reference.columns else "prediction"
    skip = {id_col, "label", "row_id"}
    numeric = [
        c for c in production.columns if c not in skip and pd.api.types.is_numeric_dtype(production[c])
    ]
    categorical = {
        c: sorted(reference[c].astype(str).unique())
        for c in production.columns
        if c not in skip and c not in numeric
    }
    correct = ((reference[score_col] >= 0.5).astype(int) == reference["label"]).to_numpy(float)
    log.info(
        "monitoring: reference %s, %d batches; domain features %s + one-hot %s; reference accuracy %.4f",
        reference.shape,
        production[id_col].nunique(),
        numeric,
        list(categorical),
        correct.mean(),
    )
    x_ref = _features(reference, numeric, categorical)
    centre, spread = x_ref.mean(axis=0), x_ref.std(axis=0) + 1e-9
    estimates = {}
    for batch, rows in production.groupby(id_col):
        x_b = _features(rows, numeric, categorical)
        x = (np.vstack([x_ref, x_b]) - centre) / spread
        y = np.r_[np.zeros(len(x_ref)), np.ones(len(x_b))]
        domain = LogisticRegression(C=1.0, max_iter=1000).fit(x, y)
        p = domain.predict_proba((x_ref - centre) / spread)[:, 1]
        weights = np.clip(p / (1.0 - p) * len(x_ref) / len(x_b), 0.0, 20.0)
        estimates[batch] = float((weights * correct).sum() / max(weights.sum(), 1e-12))
    out = sample[[id_col]].copy()
    out[target] = out[id_col].map(estimates)
    return out, {
        "method": "importance-weighted reference accuracy",
        "reference_accuracy": float(correct.mean()),
    }


# -------------------------------------------------------------------------------------- change points


def _mean_shift(values: np.ndarray, window: int) -> np.ndarray:
    """Per position, the largest two-window t statistic of a channel's level."""
    z = (values - np.median(values, axis=0)) / (values.std(axis=0) + 1e-9)
    n = len(z)
    csum = np.vstack([np.zeros((1, z.shape[1])), np.cumsum(z, axis=0)])
    csq = np.vstack([np.zeros((1, z.shape[1])), np.cumsum(z**2, axis=0)])
    t = np.arange(window, n - window + 1)
    left = (csum[t] - csum[t - window]) / window
    right = (csum[t + window] - csum[t]) / window
    pooled = (
        (csq[t] - csq[t - window]) / window - left**2 + (csq[t + window] - csq[t]) / window - right**2
    ) / 2
    out = np.zeros(n)
    out[t] = np.max(np.abs(right - left) / np.sqrt(np.maximum(pooled, 1e-6)), axis=1) * np.sqrt(window / 2)
    return out


def _detect(stat: np.ndarray, threshold: float, gap: int) -> list[int]:
    found: list[int] = []
    for t in np.argsort(-stat, kind="stable"):
        if stat[t] < threshold:
            break
        if all(abs(int(t) - f) >= gap for f in found):
            found.append(int(t))
    return sorted(found)


def _f1(truth: list[list[int]], found: list[list[int]], margin: int) -> float:
    tp = fp = fn = 0
    for true_cps, detected in zip(truth, found, strict=True):
        free = list(true_cps)
        hits = 0
        for d in detected:
            near = [t for t in free if abs(t - d) <= margin]
            if near:
                free.remove(min(near, key=lambda t: abs(t - d)))
                hits += 1
        tp, fp, fn = tp + hits, fp + len(detected) - hits, fn + len(true_cps) - hits
    return 2 * tp / max(2 * tp + fp + fn, 1)


def _change_points(data_dir: Path, window: int = 40, margin: int = 10) -> tuple[pd.DataFrame, dict]:
    stream = pd.read_csv(data_dir / "stream.csv")
    train = pd.read_csv(data_dir / "train.csv", keep_default_na=False)
    sample = pd.read_csv(data_dir / "sample_submission.csv", keep_default_na=False)
    id_col, target = sample.columns[0], sample.columns[1]
    order_col = next(c for c in stream.columns if c != id_col)
    channels = [c for c in stream.columns if c not in (id_col, order_col)]
    series = {
        key: rows.sort_values(order_col)[channels].to_numpy(float) for key, rows in stream.groupby(id_col)
    }
    labelled = [
        (key, [int(v) for v in str(cps).split()])
        for key, cps in zip(train[id_col], train[target], strict=True)
    ]
    statistics = {key: _mean_shift(series[key], window) for key in series}
    best = (-1.0, 6.0)
    for threshold in np.geomspace(2.0, 60.0, 40):
        found = [_detect(statistics[key], threshold, window) for key, _ in labelled]
        best = max(best, (_f1([cps for _, cps in labelled], found, margin), float(threshold)))
    log.info(
        "change points: window %d, threshold %.2f tuned on %d labelled streams (F1 %.3f)",
        window,
        best[1],
        len(labelled),
        best[0],
    )
    out = sample[[id_col]].copy()
    out[target] = [" ".join(map(str, _detect(statistics[key], best[1], window))) for key in out[id_col]]
    return out, {"method": "two-window mean shift", "threshold": best[1], "train_f1": best[0]}


# ------------------------------------------------------------------------------------------- A/B tests


def _ab_tests(data_dir: Path, srm_level: float = 1e-3, alpha: float = 0.05) -> tuple[pd.DataFrame, dict]:
    experiments = pd.read_csv(data_dir / "experiments.csv")
    users = pd.read_csv(data_dir / "users.csv")
    sample = pd.read_csv(data_dir / "sample_submission.csv")
    id_col = sample.columns[0]
    logs = dict(tuple(users.groupby(id_col)))
    z = float(stats.norm.ppf(1 - alpha / 2))
    rows, invalid = [], 0
    for design in experiments.itertuples(index=False):
        key = getattr(design, id_col)
        arms = logs[key]
        revenue_a = arms.loc[arms["arm"] == "A", "revenue"].to_numpy(float)
        revenue_b = arms.loc[arms["arm"] == "B", "revenue"].to_numpy(float)
        if stats.binomtest(len(revenue_b), len(arms), design.treatment_share).pvalue < srm_level:
            rows.append((key, 0.0, 0.0, 0.0, -1))
            invalid += 1
            continue
        diff = float(revenue_b.mean() - revenue_a.mean())
        se = float(np.sqrt(revenue_a.var(ddof=1) / len(revenue_a) + revenue_b.var(ddof=1) / len(revenue_b)))
        lower, upper = diff - z * se, diff + z * se
        rows.append((key, diff, lower, upper, int(lower > 0)))
    log.info("A/B tests: %d experiments, %d with a sample-ratio mismatch", len(rows), invalid)
    columns = list(sample.columns)
    return pd.DataFrame(rows, columns=columns), {"method": "SRM check + Welch interval", "invalid": invalid}
