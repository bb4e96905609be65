"""Pair a submission with the answers the way MLE-bench v1 does (``grading.mode: v1``).

A competition's ``submission.v1`` block (:class:`mlebench_spec.declarations.V1Matching`) says where v1's
grader pairs rows or columns differently from ours. :func:`as_v1` rewrites the submission (and, for
repeated ids, the answers) into the pairing v1 would score, so the ordinary validation and the pure
metric then score exactly those pairs: nothing here computes a score. What v1 refuses (its
InvalidSubmissionError, or a crash inside its grader) raises :class:`InvalidSubmission` with the reason.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np
import pandas as pd

from mlebench_spec.declarations import Submission, V1Matching

from ._text import SHOWN, count, some
from .errors import InvalidSubmission

if TYPE_CHECKING:
    from .registry import Metric


def strict_spec(spec: Submission) -> Submission:
    """Return the declaration without its v1 rules: what ``grading.mode: strict`` validates against."""
    return spec.model_copy(update={"v1": None})


def as_v1(
    submission: pd.DataFrame,
    answers: pd.DataFrame,
    spec: Submission,
    metric: Metric | None = None,
    metric_args: Mapping[str, Any] | None = None,
) -> tuple[pd.DataFrame, pd.DataFrame, Submission]:
    """Return ``(submission, answers, spec)`` rewritten so that strict validation scores v1's pairs.

    Without a ``submission.v1`` block the inputs come back unchanged (v1 and ours agree). ``metric`` (the
    registry's entry) and ``metric_args`` are needed by ``unscored: drop``, which asks the metric which
    answer rows it scores.
    """
    rules = spec.v1
    if rules is None:
        return submission, answers, spec
    out = strict_spec(spec)
    if rules.extra_columns is not None:
        out = out.model_copy(update={"extra_columns": rules.extra_columns})
    ids = spec.id_column
    if rules.columns == "position":
        submission = _columns_by_position(submission, spec)
    elif rules.columns == "order" and list(submission.columns) != spec.columns:
        raise InvalidSubmission(
            f"v1 reads the columns by their place, so they must be {spec.columns} in this order; "
            f"got {list(submission.columns)}"
        )
    if isinstance(rules.missing_cells, dict) or rules.missing_cells == "nan_numbers":
        texts = rules.missing_cells
        if texts == "nan_numbers":
            texts = dict.fromkeys(spec.target_columns, "nan")
        submission = _filled(submission, texts)
        out = out.model_copy(update={"nan_columns": [c for c, text in texts.items() if text == "nan"]})
    elif rules.missing_cells == "refuse":
        _refuse_missing(submission, spec)
    elif rules.missing_cells != "as_is":
        token = "nan" if rules.missing_cells == "nan" else ""
        submission, answers = (_missing_as(frame, spec, token) for frame in (submission, answers))
    if rules.extra_rows == "truncate":
        submission = _truncated(submission, answers)
    if rules.key_columns == "unread":
        submission, out = _keys_unread(submission, out)
    if ids not in submission.columns:
        return submission, answers, out  # strict validation names the missing column
    if rules.same_id_set:
        _refuse_other_ids(submission, answers, ids)
    if rules.unscored == "drop" or rules.missing_ids == "ignore":
        submission, answers = _v1_rows(submission, answers, out, rules, metric, metric_args or {})
    if rules.match in ("id", "occurrence"):
        out = out.model_copy(update={"match": rules.match})
    elif rules.match is not None:
        submission = _rows_by_position(submission, answers, spec, sort=rules.match == "sorted")
    if rules.duplicate_ids == "merge":
        submission, answers = _merged(submission, answers, ids)
    return submission, answers, out


NA_WORDS = frozenset(
    ["", "#N/A", "#N/A N/A", "#NA", "-1.#IND", "-1.#QNAN", "-NaN", "-nan", "1.#IND", "1.#QNAN", "<NA>", "N/A"]
    + ["NA", "NULL", "NaN", "None", "n/a", "nan", "null"]
)
"""The cells pandas' CSV reader (v1's) reads as missing by default."""


def _refuse_missing(submission: pd.DataFrame, spec: Submission) -> None:
    """Cells v1 reads as missing, where its grader crashes on a NaN: refused, each column named."""
    found = []
    for column in (c for c in spec.target_columns if c in submission.columns):
        rows = np.flatnonzero(submission[column].isin(NA_WORDS).to_numpy(dtype=bool))
        if rows.size:
            first = submission[column].iat[rows[0]]
            found.append(f"column {column!r}: {rows.size} (first at row {rows[0] + 1}: {first!r})")
    if found:
        raise InvalidSubmission(
            "v1 reads these cells as missing values (blank, NA, null, None, nan, ...), which its grader "
            f"cannot score: {'; '.join(found)}"
        )


def _filled(submission: pd.DataFrame, texts: Mapping[str, str]) -> pd.DataFrame:
    """Each declared column's cells v1 reads as missing, written as that column's text (its ``fillna``)."""
    out = submission
    for column, text in texts.items():
        if column in submission.columns:
            missing = submission[column].isin(NA_WORDS).to_numpy(dtype=bool)
            if missing.any():
                out = out.copy() if out is submission else out
                out[column] = np.where(missing, text, submission[column].to_numpy(dtype=object))
    return out


def _missing_as(frame: pd.DataFrame, spec: Submission, token: str) -> pd.DataFrame:
    """Cells v1 reads as missing, written as ``token`` (the text its grader turns a NaN into)."""
    out = frame
    for column in (c for c in spec.target_columns if c in frame.columns):
        missing = frame[column].isin(NA_WORDS).to_numpy(dtype=bool)
        if missing.any():
            out = out.copy() if out is frame else out
            out[column] = np.where(missing, token, frame[column].to_numpy(dtype=object))
    return out


def _truncated(submission: pd.DataFrame, answers: pd.DataFrame) -> pd.DataFrame:
    """Rows past the answers' count dropped unread (v1 zips the two files); fewer rows refused."""
    if len(submission) < len(answers):
        raise InvalidSubmission(
            f"v1 scores a submission shorter than the answers ({len(submission)} rows, not "
            f"{len(answers)}) on a part of its rows that no pairing of rows reproduces here, so grading.mode "
            "v1 refuses it (see the competition's v1_mode known issue)"
        )
    return submission.iloc[: len(answers)].reset_index(drop=True)


def _keys_unread(submission: pd.DataFrame, spec: Submission) -> tuple[pd.DataFrame, Submission]:
    """v1 requires the key columns but never reads them: checked for, then left out of the pairing."""
    keys = spec.key_columns
    missing = [c for c in keys if c not in submission.columns]
    if missing:
        raise InvalidSubmission(f"v1 needs the columns {missing} (though it does not read their values)")
    columns = [c for c in spec.columns if c not in keys]
    update = {"key_columns": [], "columns": columns, "extra_columns": "ignore"}
    return submission.drop(columns=keys), spec.model_copy(update=update)


def _refuse_other_ids(submission: pd.DataFrame, answers: pd.DataFrame, ids: str) -> None:
    """v1 compares the two sets of ids before pairing rows: refused unless they are equal."""
    mine, theirs = set(_sort_keys(submission[ids])), set(_sort_keys(answers[ids]))
    if mine != theirs:
        raise InvalidSubmission(
            f"v1 needs the submission's set of {ids!r} values to be the answers': "
            f"{len(theirs - mine)} answer ids are missing and {len(mine - theirs)} submitted ids are unknown"
        )


def _v1_rows(
    submission: pd.DataFrame,
    answers: pd.DataFrame,
    spec: Submission,
    rules: V1Matching,
    metric: Metric | None,
    args: Mapping[str, Any],
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Keep the rows v1 keeps on each side before pairing (``unscored: drop``, ``missing_ids: ignore``)."""
    ids = spec.id_column
    mine, theirs = _sort_keys(submission[ids]), _sort_keys(answers[ids])
    unknown = ~mine.isin(theirs.unique()).to_numpy(dtype=bool)
    if unknown.any():
        rows = np.flatnonzero(unknown)
        shown = [repr(submission[ids].iat[i]) for i in rows[:SHOWN]]
        raise InvalidSubmission(
            f"v1 refuses ids its answers lack ({count(rows.size, 'row')} in column {ids!r}): "
            f"{some(shown, rows.size)}"
        )
    if rules.unscored == "drop":
        if metric is None:
            raise ValueError("submission.v1.unscored: drop needs the metric (as_v1(..., metric=...))")
        if rules.missing_ids == "reject" and len(submission) != len(answers):
            raise InvalidSubmission(
                f"v1 compares row counts before leaving out the rows it does not score: expected "
                f"{len(answers)}, got {len(submission)}"
            )
        if metric.rows_fn is not None:
            scored = np.asarray(metric.rows_fn(metric.kind.truth(answers, spec), **args), dtype=bool)
            keep = mine.isin(theirs[scored].unique()).to_numpy(dtype=bool)
            answers, theirs = answers[scored], theirs[scored]
            submission, mine = submission[keep], mine[keep]
            if not scored.any():
                raise InvalidSubmission("v1 finds no answer row it scores: its grader has nothing to score")
    if rules.missing_ids == "ignore":
        listed = theirs.isin(mine.unique()).to_numpy(dtype=bool)
        if not listed.any():
            raise InvalidSubmission(f"v1 has no scored answer row whose {ids!r} the submission lists")
        answers = answers[listed]
    return submission.reset_index(drop=True), answers.reset_index(drop=True)


def _sort_keys(ids: pd.Series) -> pd.Series:
    """Ids as v1's pandas reads them: numbers where every id parses as one, else the text."""
    numbers = pd.to_numeric(ids, errors="coerce")
    return ids.astype(str) if numbers.isna().any() else numbers


def _columns_by_position(submission: pd.DataFrame, spec: Submission) -> pd.DataFrame:
    """v1 takes the prediction columns in the submission's order: relabel a permutation of them."""
    rest = [c for c in submission.columns if c != spec.id_column]
    targets = [c for c in spec.columns if c != spec.id_column]
    if sorted(rest) != sorted(targets) or rest == targets:
        return submission
    renamed = submission[rest].set_axis(targets, axis=1)
    if spec.id_column in submission.columns:
        renamed.insert(0, spec.id_column, submission[spec.id_column])
    return renamed


def _rows_by_position(
    submission: pd.DataFrame, answers: pd.DataFrame, spec: Submission, *, sort: bool
) -> pd.DataFrame:
    """Give the k-th submission row (in file order, or after sorting by id) the k-th answer row's ids."""
    if len(submission) != len(answers):
        how = "after sorting both by id" if sort else "in file order"
        raise InvalidSubmission(
            f"v1 pairs rows {how} without checking ids, so the row count must be the answers': "
            f"expected {len(answers)}, got {len(submission)}"
        )
    keys = [spec.id_column, *spec.key_columns]
    if not sort:
        out = submission.copy()
        for key in keys:
            if key in out.columns:
                out[key] = answers[key].to_numpy()
        return out
    # pandas' sort_values sorts with numpy's (unstable) quicksort: repeated ids pair up as in v1
    mine = np.argsort(_sort_keys(submission[spec.id_column]).to_numpy(), kind="quicksort")
    theirs = np.argsort(_sort_keys(answers[spec.id_column]).to_numpy(), kind="quicksort")
    order = np.empty(len(answers), dtype=np.intp)
    order[theirs] = mine  # the submission row paired with each answer row
    out = submission.iloc[order].reset_index(drop=True)
    for key in keys:
        if key in out.columns:
            out[key] = answers[key].to_numpy()
    return out


def _merged(submission: pd.DataFrame, answers: pd.DataFrame, ids: str) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Repeated ids: v1 checks the id sets and merges, scoring each submitted row against its id's answer."""
    mine, theirs = _sort_keys(submission[ids]), _sort_keys(answers[ids])
    if mine.is_unique or mine.dtype != theirs.dtype:
        return submission, answers
    if set(mine) != set(theirs):
        raise InvalidSubmission(
            f"v1 scores repeated ids only when the submission's set of {ids!r} values is the answers'; "
            f"{len(set(theirs) - set(mine))} answer ids are missing and "
            f"{len(set(mine) - set(theirs))} submitted ids are unknown"
        )
    pairs = pd.DataFrame({"key": theirs.to_numpy(), "a": np.arange(len(answers))}).merge(
        pd.DataFrame({"key": mine.to_numpy(), "s": np.arange(len(submission))}), on="key"
    )
    labels = pd.Series(np.arange(len(pairs))).astype(str).to_numpy()
    answers = answers.iloc[pairs["a"].to_numpy()].reset_index(drop=True)
    submission = submission.iloc[pairs["s"].to_numpy()].reset_index(drop=True)
    answers[ids] = labels
    submission[ids] = labels
    return submission, answers
