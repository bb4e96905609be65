"""Infer the task from the shape of the public files.

Rules (each decision is logged by the caller):

* **Targets** are the sample submission's columns after the first (the id column).
* **Direct mode** when every target is a column of ``train.csv``. Otherwise **class-probability
  mode**: find a ``train.csv`` column whose distinct values cover the target names; each target
  column is then the predicted probability of that class.
* Per target, in this order:
  segmentation (values look like run-length encodings and ``train/``+``test/`` hold images) →
  sequence-to-sequence (string target, mostly distinct values, and a string input column shared
  with ``test.csv``) → classification (non-numeric, or integer-valued with few distinct values)
  → regression (anything else numeric).
* Classification output: probability of the larger label when the sample submission holds
  non-integer numbers for a binary target; otherwise labels of train's type.
* Regression on a strictly positive, right-skewed target (or an RMSLE metric) is fitted on
  ``log1p``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .data import PublicData
from .metrics import metric_hint

_RLE = re.compile(r"^\d+( \d+)*$")
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2})?)?$")
MAX_CLASSES_FOR_INTEGER_TARGET = 20


@dataclass
class TargetSpec:
    """How to predict one target and how to write it."""

    name: str
    kind: str  # binary | multiclass | regression | segmentation | seq2seq | constant
    output: str  # labels | proba_positive | proba_columns | values | rle | text
    metric: str
    classes: list = field(default_factory=list)
    log_target: bool = False
    input_col: str | None = None
    reason: str = ""


@dataclass
class TaskSpec:
    """The inferred task: id column, submission columns and one :class:`TargetSpec` per target."""

    id_col: str
    mode: str  # direct | class_proba
    submission_columns: list[str]
    targets: list[TargetSpec]
    temporal_col: str | None = None
    class_col: str | None = None


def looks_like_rle(values: pd.Series) -> bool:
    """Tell whether (almost) every non-empty value is "start length start length …" integers.

    Examples:
        >>> looks_like_rle(pd.Series(["1 3 10 2", None, "", "5 1"]))
        True
        >>> looks_like_rle(pd.Series(["1 3 10", "5 1"]))
        False
        >>> looks_like_rle(pd.Series([None, None]))
        False

    """
    texts = values.dropna().astype(str).str.strip()
    texts = texts[texts != ""]
    if texts.empty:
        return False
    ok = texts.map(lambda s: bool(_RLE.match(s)) and len(s.split()) % 2 == 0)
    return bool(ok.mean() >= 0.98)


def looks_like_date(values: pd.Series) -> bool:
    """Tell whether (almost) every non-missing value is an ISO date ``YYYY-MM-DD`` (time optional).

    Examples:
        >>> looks_like_date(pd.Series(["2001-01-31", "2020-12-01"]))
        True
        >>> looks_like_date(pd.Series([20010131, 20201201]))
        False

    """
    if pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
        return False
    texts = values.dropna().astype(str).head(2000)
    if texts.empty:
        return False
    return bool(texts.map(lambda s: bool(_DATE.match(s.strip()))).mean() >= 0.95)


def is_integer_valued(values: pd.Series) -> bool:
    """Tell whether numeric values are all whole numbers (missing values ignored)."""
    if not pd.api.types.is_numeric_dtype(values) or pd.api.types.is_bool_dtype(values):
        return pd.api.types.is_bool_dtype(values)
    v = values.dropna().to_numpy(dtype=float)
    return bool(v.size) and bool(np.all(np.isfinite(v)) and np.all(v == np.round(v)))


def is_string_column(values: pd.Series) -> bool:
    """Tell whether a column holds text (object or pandas string dtype)."""
    return not pd.api.types.is_numeric_dtype(values) and not pd.api.types.is_bool_dtype(values)


def find_class_column(train: pd.DataFrame, names: list[str], exclude: set[str]) -> str | None:
    """Return the train column whose distinct values best cover ``names`` (at least half of them).

    Examples:
        >>> df = pd.DataFrame({"id": [1, 2, 3], "sp": ["a", "b", "c"]})
        >>> find_class_column(df, ["a", "b", "c"], exclude={"id"})
        'sp'

    """
    wanted = {str(n) for n in names}
    best, best_cover = None, 0.0
    for col in train.columns:
        if col in exclude:
            continue
        values = set(train[col].dropna().astype(str).unique())
        if not values or len(values) > 10 * len(wanted):
            continue
        cover = len(wanted & values) / len(wanted)
        if cover > best_cover:
            best, best_cover = col, cover
    return best if best_cover >= 0.5 else None


def _sample_wants_probabilities(sample_values: pd.Series) -> bool:
    """Non-integer numbers in the sample submission (e.g. 0.5) signal a probability column."""
    if not pd.api.types.is_numeric_dtype(sample_values):
        return False
    v = sample_values.dropna().to_numpy(dtype=float)
    return bool(v.size) and bool(np.any(v != np.round(v)))


def _pick_input_column(data: PublicData, target: str) -> str | None:
    """Pick the string column shared by train and test that is most row-specific (for seq2seq)."""
    candidates = []
    for col in data.train.columns:
        if col in (target, data.id_col) or col not in data.test.columns:
            continue
        if is_string_column(data.train[col]):
            s = data.train[col].dropna().astype(str)
            candidates.append((s.nunique() / max(len(s), 1), s.str.len().mean(), col))
    return max(candidates)[2] if candidates else None


def classify_target(
    data: PublicData, name: str, y: pd.Series, sample_col: pd.Series, hint: str | None
) -> TargetSpec:
    """Decide kind and output format of one direct target."""
    y_known = y.dropna()
    if looks_like_rle(y):
        if data.has_images:
            return TargetSpec(
                name, "segmentation", "rle", "dice", reason="RLE-looking values and image folders"
            )
        return TargetSpec(name, "constant", "labels", "accuracy", reason="RLE-looking values but no images")
    if is_string_column(y):
        distinct = y_known.astype(str).nunique()
        if distinct > 50 and distinct / max(len(y_known), 1) > 0.5:
            input_col = _pick_input_column(data, name)
            if input_col is not None:
                return TargetSpec(
                    name,
                    "seq2seq",
                    "text",
                    "exact_match",
                    input_col=input_col,
                    reason=f"string target with {distinct} distinct values; input column {input_col!r}",
                )
            return TargetSpec(
                name, "constant", "labels", "accuracy", reason="many distinct strings, no input"
            )
        classes = sorted(y_known.astype(str).unique())
        return _classification(name, classes, sample_col, hint, "string target")
    distinct = y_known.nunique()
    if is_integer_valued(y_known) and distinct <= MAX_CLASSES_FOR_INTEGER_TARGET:
        classes = sorted(y_known.unique().tolist())
        if len(classes) > 2 and _sample_wants_probabilities(sample_col):
            return _regression(name, y_known, hint, "ordinal integers but fractional sample values")
        return _classification(name, classes, sample_col, hint, f"integer target with {distinct} values")
    return _regression(name, y_known, hint, f"numeric target with {distinct} distinct values")


def _classification(
    name: str, classes: list, sample_col: pd.Series, hint: str | None, why: str
) -> TargetSpec:
    if len(classes) <= 1:
        return TargetSpec(
            name, "constant", "labels", "accuracy", classes=classes, reason=f"{why}; one class only"
        )
    kind = "binary" if len(classes) == 2 else "multiclass"
    if kind == "binary" and _sample_wants_probabilities(sample_col):
        metric = hint if hint in ("roc_auc", "log_loss") else "roc_auc"
        return TargetSpec(
            name,
            kind,
            "proba_positive",
            metric,
            classes=classes,
            reason=f"{why}; sample holds fractional values -> P({classes[-1]!r})",
        )
    return TargetSpec(name, kind, "labels", "accuracy", classes=classes, reason=f"{why}; sample holds labels")


def _regression(name: str, y: pd.Series, hint: str | None, why: str) -> TargetSpec:
    v = y.to_numpy(dtype=float)
    skew = float(pd.Series(v).skew()) if v.size > 2 else 0.0
    positive = bool(v.size) and float(v.min()) > 0
    log_target = (positive and skew > 1.0) or (hint == "rmsle" and float(v.min()) >= 0)
    metric = hint if hint in ("rmse", "rmsle", "mae") else ("rmsle" if log_target else "rmse")
    return TargetSpec(
        name,
        "regression",
        "values",
        metric,
        log_target=log_target,
        reason=f"{why}; skew {skew:.2f}, min {v.min() if v.size else 'n/a'}",
    )


def detect_temporal_column(data: PublicData) -> str | None:
    """Find a date column (the id column included) whose test dates all follow the train dates."""
    for col in data.train.columns:
        if col not in data.test.columns or not looks_like_date(data.train[col]):
            continue
        train_dates = pd.to_datetime(data.train[col], errors="coerce")
        test_dates = pd.to_datetime(data.test[col], errors="coerce")
        if test_dates.notna().any() and test_dates.min() >= train_dates.quantile(0.95):
            return col
    return None


def detect_task(data: PublicData) -> TaskSpec:
    """Infer the whole task (see module docstring for the rules)."""
    hint = metric_hint(data.description)
    id_col = data.id_col
    targets = [str(c) for c in data.sample.columns[1:]]
    if not targets:
        raise ValueError("sample_submission.csv has only an id column; nothing to predict")
    temporal = detect_temporal_column(data)
    if all(t in data.train.columns for t in targets):
        specs = [classify_target(data, t, data.train[t], data.sample[t], hint) for t in targets]
        return TaskSpec(id_col, "direct", list(map(str, data.sample.columns)), specs, temporal_col=temporal)
    class_col = find_class_column(data.train, targets, exclude={id_col})
    if class_col is None:
        raise ValueError(
            f"targets {targets[:5]} are neither train.csv columns nor values of any train.csv column"
        )
    metric = hint if hint in ("log_loss", "roc_auc", "accuracy") else "log_loss"
    spec = TargetSpec(
        class_col,
        "multiclass",
        "proba_columns",
        metric,
        classes=targets,
        reason=f"submission columns are the values of train column {class_col!r}",
    )
    return TaskSpec(
        id_col,
        "class_proba",
        list(map(str, data.sample.columns)),
        [spec],
        temporal_col=temporal,
        class_col=class_col,
    )
