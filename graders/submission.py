"""Read a submission CSV and check it against the answers, reporting every problem at once.

The same two functions serve the grader and the validation an agent can call, so an agent sees exactly
the reasons its submission would be rejected for. Every cell is read as a string: ids are compared
exactly (``"0300"`` is not ``"300"``), labels are compared exactly, an empty RLE cell is an empty mask,
and a literal ``nan`` or ``inf`` in a numeric column is caught instead of silently parsed.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from mlebench.spec.declarations import Submission

from ._csv import UnreadableCSV, read_csv_strings
from ._text import SHOWN, count, quote, some
from .errors import InvalidSubmission
from .metrics._boxes import LAYOUTS, Layout, parse_boxes
from .registry import Metric
from .rle import parse_rles

ROW_SUM_TOLERANCE = 1e-6
"""How far class probabilities may sum from 1, unless the metric or the competition says otherwise."""
_ROW_SUM_TOLERANCES = {"kl_divergence": 5e-6, "log_loss": 1.1e-5}
"""By metric, as v1 checks: hms asks that the row sum round to 1 at 5 decimals; the log-loss graders call
``np.isclose(sum, 1, atol=1e-6)``, whose default ``rtol=1e-5`` makes the bound 1.1e-5. A competition's
``submission.row_sum_tolerance`` overrides both (lmsys rounds to 6 decimals)."""

_NAN_WORDS = frozenset({"nan", "+nan", "-nan"})
_TABLE_KINDS = ("numeric_table", "rle_table", "boxes")
_MATRIX_KINDS = ("probabilities", "numeric_columns")  # several answer columns -> 2-D float arrays
_STRING_KINDS = ("labels", "rle_mask", "text", "permutation", "points", "integer_sequence")
_POINTS = Layout(size=3, label_at=0, blank_ok=True)  # kind "points": label x y


def read_submission(path: Path | str) -> pd.DataFrame:
    """Read a submission CSV with every cell as a string.

    Raises
    ------
    InvalidSubmission
        If the file is missing, not named ``*.csv``, empty, not UTF-8, not parsable as CSV, has duplicate
        column names, or has a row whose field count differs from the header's.

    """
    try:
        return read_csv_strings(Path(path))
    except UnreadableCSV as exc:
        raise InvalidSubmission(str(exc)) from None


def read_answers(path: Path | str) -> pd.DataFrame:
    """Read a private answers CSV exactly as submissions are read; a problem is a ValueError (our bug)."""
    return read_csv_strings(Path(path))


def validate(
    submission: pd.DataFrame,
    answers: pd.DataFrame,
    spec: Submission,
    metric: Metric,
    *,
    metric_args: Mapping[str, Any] | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Check a submission against the answers and return ``(y_true, y_pred)`` aligned by id.

    Every problem is collected before raising: missing or unexpected columns; missing, unexpected or
    duplicate ids; a wrong row count; and per answer column, values the metric's kind cannot take (empty
    cells, NaN, infinities, text that is not a number, probabilities outside [0, 1], class rows that do
    not sum to 1, values below the metric's minimum, malformed RLE masks). Where the declaration says so
    (``extra_columns`` / ``extra_ids: ignore``), columns beyond ``spec.columns`` and rows whose id is not
    in the answers are dropped first, unreported, as the v1 grader ignores them.

    Parameters
    ----------
    submission, answers
        Frames read by :func:`read_submission` and :func:`read_answers` (all cells strings).
    spec
        The competition's ``submission:`` block: id column first, then the answer columns.
    metric
        The registry entry; its ``kind`` decides the value checks and the shape of the arrays.
    metric_args
        The competition's metric arguments; ``height`` and ``width`` bound RLE masks.

    Returns
    -------
    tuple of numpy.ndarray
        ``y_true`` and ``y_pred`` in the answers' row order: 1-D strings (``labels``, ``rle_mask``),
        1-D floats (``binary_probability``, ``regression``) or 2-D floats (``probabilities``, columns in
        ``spec.target_columns`` order).

    Raises
    ------
    InvalidSubmission
        With one reason per problem found.
    ValueError
        If the answers or the declaration are inconsistent (a bug on our side, never the agent's).

    """
    y_true = _answer_values(answers, spec, metric)
    submission = _without_extras(submission, answers, spec)
    reasons = _column_problems(submission, spec)
    ids = submission[spec.id_column] if spec.id_column in submission else None
    if spec.match == "position":
        id_reasons, order = [], None
        for column in [spec.id_column, *spec.key_columns]:
            found, matched = _match_positions(
                answers[column].to_numpy(dtype=object),
                submission[column].to_numpy(dtype=object) if column in submission else None,
                column,
            )
            id_reasons += found
            order = matched if column == spec.id_column else (order if matched is not None else None)
    elif spec.match == "occurrence":
        id_reasons, order = _match_ids(
            _occurrences(answers[spec.id_column]),
            None if ids is None else _occurrences(ids),
            spec.id_column,
        )
    else:
        id_reasons, order = _match_ids(answers[spec.id_column], ids, spec.id_column, spec.integer_ids)
    reasons += id_reasons
    if len(submission) != len(answers):
        reasons.append(
            f"wrong number of rows: expected {len(answers)} (one per id in the answers), "
            f"got {len(submission)}"
        )
    where = _Where(ids)
    present = [c for c in spec.target_columns if c in submission.columns]
    parsed = {}
    for column in present:
        texts = submission[column]  # a Series: numbers parse straight from its Arrow buffer
        problems, parsed[column] = _value_problems(
            column, texts, where, metric, metric_args or {}, blank_ok=spec.blank_labels
        )
        reasons += problems
    if metric.kind == "probabilities" and present == spec.target_columns:
        tolerance = spec.row_sum_tolerance or _ROW_SUM_TOLERANCES.get(metric.name, ROW_SUM_TOLERANCE)
        reasons += _row_sum_problems(np.column_stack([parsed[c] for c in present]), where, tolerance)
    if metric.kind == "permutation" and present and order is not None:
        reasons += _permutation_problems(present[0], y_true, parsed[present[0]], order, where)
    if reasons or order is None:
        raise InvalidSubmission(reasons)
    in_order = np.array_equal(order, np.arange(len(order)))  # the usual case: no reordering copy needed
    if metric.kind in _MATRIX_KINDS:
        matrix = np.column_stack([parsed[c] for c in spec.target_columns])
        return y_true, matrix if in_order else matrix[order]
    if metric.kind in _TABLE_KINDS:  # y_pred is indexed by submission file position (see registry.Kind)
        columns = {c: parsed[c] if in_order else parsed[c][order] for c in spec.target_columns}
        return y_true, pd.DataFrame(columns, index=pd.RangeIndex(len(order)) if in_order else order)
    values = parsed[spec.target_columns[0]]
    return y_true, values if in_order else values[order]


class _Where:
    """Names rows in messages: by id when the id column is there, else by 1-based row number."""

    def __init__(self, ids: np.ndarray | pd.Series | None, prefix: str = "") -> None:
        self.ids, self.prefix = ids, prefix

    def __call__(self, row: int) -> str:
        if self.ids is None:
            return f"{self.prefix}row {row + 1}"
        value = self.ids.iloc[row] if isinstance(self.ids, pd.Series) else self.ids[row]
        return f"{self.prefix}id {str(value)!r}"


def _answer_values(answers: pd.DataFrame, spec: Submission, metric: Metric) -> np.ndarray:
    """Return the answers as the metric takes them; a problem here is a ValueError (our bug)."""
    targets = spec.target_columns
    if metric.kind == "probabilities" and len(targets) < 2:
        raise ValueError(f"metric {metric.name!r} needs one answer column per class, got {targets}")
    if metric.kind not in ("probabilities", "numeric_table", "numeric_columns") and len(targets) != 1:
        raise ValueError(f"metric {metric.name!r} takes exactly one answer column, got {targets}")
    missing = [c for c in spec.columns if c not in answers.columns]
    if missing:
        raise ValueError(f"the answers lack columns {missing} named in submission.columns {spec.columns}")
    if answers.empty:
        raise ValueError("the answers have no rows")
    if metric.kind in _STRING_KINDS:
        return answers[targets[0]].to_numpy(dtype=object)
    if metric.kind in _TABLE_KINDS:  # the metric reads (and checks) the answer columns it needs
        return answers.reset_index(drop=True)
    where = _Where(answers[spec.id_column], prefix="answers ")
    values = []
    for column in targets:
        numbers, problems = _numbers(column, answers[column], where)
        if problems:
            raise ValueError("; ".join(problems))
        values.append(numbers)
    if metric.kind == "integer_labels":
        return np.trunc(values[0]).astype(np.int64)
    return np.column_stack(values) if metric.kind in _MATRIX_KINDS else values[0]


def _without_extras(submission: pd.DataFrame, answers: pd.DataFrame, spec: Submission) -> pd.DataFrame:
    """Drop the columns and rows the declaration says to ignore (see :func:`validate`).

    Rows are kept when their id is one of the answers' ids as :func:`_match_ids` compares them (exactly, or
    by integer value with ``integer_ids``); duplicate and missing ids are left for it to report.
    """
    if spec.extra_columns == "ignore":
        kept = [c for c in submission.columns if c in spec.columns]
        if len(kept) < len(submission.columns):
            submission = submission[kept]
    if spec.extra_ids == "ignore" and spec.id_column in submission.columns:
        n = len(answers)
        keys = _keys(answers[spec.id_column], submission[spec.id_column], spec.integer_ids)
        known = pd.Series(keys[n:], dtype=keys.dtype).isin(keys[:n]).to_numpy(dtype=bool)
        if not known.all():
            submission = submission[known].reset_index(drop=True)
    return submission


def _column_problems(submission: pd.DataFrame, spec: Submission) -> list[str]:
    present, expected = list(submission.columns), list(spec.columns)
    missing = [c for c in expected if c not in present]
    extra = [c for c in present if c not in expected]
    reasons = []
    if missing:
        reasons.append(f"missing columns: {quote(missing)} (expected columns: {quote(expected)})")
    if extra:
        reasons.append(f"unexpected columns: {quote(extra)} (expected columns: {quote(expected)})")
    return reasons


def _occurrences(ids: pd.Series) -> pd.Series:
    """Each id with its occurrence number (``"7 #2"`` is the second row of id 7), for repeated ids."""
    text = ids.astype(str)
    return text + " #" + (text.groupby(text, sort=False).cumcount() + 1).astype(str)


def _match_positions(
    answer_ids: np.ndarray, ids: np.ndarray | None, id_column: str
) -> tuple[list[str], np.ndarray | None]:
    """Rows meet by position (``submission.match: position``): the ids must equal the answers' row by row.

    MLE-bench v1 pairs these rows without looking at the ids; checking them turns a silently misaligned
    submission into a precise reason instead of a wrong score.
    """
    if ids is None:
        return [], None
    if len(ids) != len(answer_ids):
        return [], None  # the row-count reason is reported by the caller
    wrong = np.flatnonzero(ids.astype(str) != answer_ids.astype(str))
    if wrong.size:
        shown = [f"row {i + 1}: {ids[i]!r}, expected {answer_ids[i]!r}" for i in wrong[:SHOWN]]
        return [
            f"rows are matched by position, so column {id_column!r} must list the answers' values in their "
            f"order; {count(wrong.size, 'row')} differ: {some(shown, wrong.size)}"
        ], None
    return [], np.arange(len(answer_ids))


_CANONICAL_INT = r"^(0|-?[1-9][0-9]{0,17})$"  # the one text of an int64 (no sign, zero or space padding)
_INTEGER_TEXT = r"^\s*[+-]?[0-9]{1,18}(\.0*)?\s*$"  # what pandas reads as a whole number


def _integer_values(text: pa.Array) -> np.ndarray:
    """Whole numbers written as :data:`_INTEGER_TEXT` allows, as int64."""
    trimmed = pc.utf8_trim_whitespace(text)
    whole = pc.replace_substring_regex(trimmed, r"\.0*$", "")
    return pc.cast(whole, pa.int64()).to_numpy(zero_copy_only=False)


def _keys(answer_ids: pd.Series, ids: pd.Series | None, integer_ids: bool = False) -> np.ndarray:
    """Answer ids then submitted ids, as int64 when every one is an integer's canonical text, else text.

    Equality is unchanged (only ids written exactly as ``str(int)`` become ints, so ``"007"`` never meets
    ``"7"``), and hashing 26M ints is several times faster than hashing 26M strings (icecube). Columns
    read by :func:`read_submission` are Arrow strings, so the check needs no copy into Python objects.
    With ``integer_ids`` (``submission.integer_ids``) ids are compared by integer value, as v1 compares
    ids pandas reads as numbers: ``"0012"``, ``"12"`` and ``"12.0"`` are one id.
    """
    columns = [answer_ids] if ids is None else [answer_ids, ids]
    try:
        texts = [pa.array(c, type=pa.large_string()) for c in columns]
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        texts = []
    pattern = _INTEGER_TEXT if integer_ids else _CANONICAL_INT
    integers = bool(texts) and all(
        len(t) and not t.null_count and pc.all(pc.match_substring_regex(t, pattern)).as_py() for t in texts
    )
    if integers and integer_ids:
        return np.concatenate([_integer_values(t) for t in texts])
    if integers:
        return np.concatenate([pc.cast(t, pa.int64()).to_numpy(zero_copy_only=False) for t in texts])
    return np.concatenate([c.to_numpy(dtype=object) for c in columns])


def _match_ids(
    answer_ids: pd.Series, ids: pd.Series | None, id_column: str, integer_ids: bool = False
) -> tuple[list[str], np.ndarray | None]:
    """Compare the submission's ids with the answers' ids, exactly, as strings.

    Returns the reasons found and, when the ids match one to one, the submission row of each answer
    row (else None). Both id lists are encoded together once, so everything after is integer work;
    a submission listing the answers' ids in their order (the usual case) only needs the answers checked.
    """
    n = len(answer_ids)
    both = _keys(answer_ids, ids, integer_ids)
    if ids is not None and len(ids) == n and np.array_equal(both[:n], both[n:]):
        if pd.Index(both[:n]).is_unique:
            return [], np.arange(n)
    codes, keys = pd.factorize(both, use_na_sentinel=False)
    uniques = keys.astype(object) if keys.dtype.kind == "i" else keys  # ints print as their own text
    if codes[:n].max() + 1 < n:  # answer ids come first, so unique answer ids are coded 0 .. n-1
        repeated = [str(u) for u in uniques[np.flatnonzero(np.bincount(codes[:n]) > 1)]]
        raise ValueError(f"the answers repeat ids in {id_column!r}: {quote(repeated[:SHOWN])}")
    if ids is None:
        return [], None
    submitted = codes[n:]
    counts = np.bincount(submitted, minlength=len(uniques))
    reasons = []
    repeated = np.flatnonzero(counts > 1)
    if repeated.size:
        shown = [f"{str(uniques[c])!r} ({counts[c]} times)" for c in repeated[:SHOWN]]
        verb = "id appears" if repeated.size == 1 else "ids appear"
        reasons.append(
            f"duplicate ids in column {id_column!r}: {repeated.size} {verb} more than once: "
            f"{some(shown, repeated.size)}"
        )
    missing = np.flatnonzero(counts[:n] == 0)
    if missing.size:
        reasons.append(
            f"missing ids: {missing.size} of the {n} ids in the answers are not in column "
            f"{id_column!r}: {some([repr(str(uniques[c])) for c in missing[:SHOWN]], missing.size)}"
        )
    extra = n + np.flatnonzero(counts[n:])  # codes follow first appearance, so this keeps file order
    if extra.size:
        verb = "is" if extra.size == 1 else "are"
        reasons.append(
            f"unexpected ids: {count(extra.size, 'id')} in column {id_column!r} {verb} not in the answers: "
            f"{some([repr(str(uniques[c])) for c in extra[:SHOWN]], extra.size)}"
        )
    if reasons:
        return reasons, None
    order = np.empty(n, dtype=np.intp)
    order[submitted] = np.arange(n)
    return [], order


def _value_problems(
    column: str,
    texts: np.ndarray,
    where: _Where,
    metric: Metric,
    metric_args: Mapping[str, Any],
    *,
    blank_ok: bool = False,
) -> tuple[list[str], np.ndarray]:
    """Problems with one submitted answer column, and its values as the metric's kind takes them.

    ``blank_ok`` (``submission.blank_labels``) lets blank labels through as answers that match nothing.
    ``texts`` may be a Series; only the numeric kinds keep it one (see :func:`_numbers`).
    """
    if metric.kind in _STRING_KINDS + ("rle_table", "boxes"):  # numeric kinds parse the Series directly
        texts = np.asarray(texts.to_numpy(dtype=object) if isinstance(texts, pd.Series) else texts)
    if metric.kind == "labels" and blank_ok:
        return [], texts
    if metric.kind == "labels":
        empty = pd.Series(texts, dtype=object).str.strip().eq("").to_numpy(dtype=bool)
        return _report(column, "empty value", empty, where), texts
    if metric.kind in ("text", "permutation"):  # anything goes; permutations are checked per row later
        return [], texts
    if metric.kind == "integer_sequence":  # v1 (multi-modal-gesture) rejects blank and non-integer cells
        tokens = pd.Series(texts, dtype=object).str.split()
        wrong = ~tokens.map(lambda ts: bool(ts) and all(_is_integer(t) for t in ts)).to_numpy(dtype=bool)
        return _report(
            column, "value", wrong, where, _quoted(texts), verb=" not a whitespace-separated list of integers"
        ), texts
    if metric.kind == "points":
        wrong = parse_boxes(texts, _POINTS).problems
        flagged = np.zeros(len(texts), dtype=bool)
        flagged[list(wrong)] = True
        return _report(
            column, "malformed point list", flagged, where, lambda r: f"{texts[r]!r} ({wrong[r]})"
        ), texts
    if metric.kind == "boxes":
        found = parse_boxes(texts, LAYOUTS[metric.name]).problems
        flagged = np.zeros(len(texts), dtype=bool)
        flagged[list(found)] = True
        return _report(
            column, "malformed prediction string", flagged, where, lambda r: f"{texts[r]!r} ({found[r]})"
        ), texts
    if metric.kind in ("rle_mask", "rle_table"):
        shape = {k: metric_args[k] for k in ("height", "width") if k in metric_args}
        if metric.kind == "rle_table":  # "-" is an empty mask too; sizes vary by row, so only the form
            texts, shape = np.where(texts == "-", "", texts).astype(object), {}  # is checked here
        problems = parse_rles(texts, **shape).problems
        bad = np.zeros(len(texts), dtype=bool)
        bad[list(problems)] = True
        return _report(
            column, "malformed RLE value", bad, where, lambda r: f"{texts[r]!r} ({problems[r]})"
        ), texts
    numbers, reasons = _numbers(column, texts, where)
    finite = np.isfinite(numbers)
    quoted = _quoted(texts)
    if metric.kind in ("binary_probability", "probabilities"):
        outside = finite & ((numbers < 0) | (numbers > 1))
        reasons += _report(column, "value", outside, where, quoted, verb=" outside [0, 1] (a probability)")
    if metric.whole_numbers:
        fractional = finite & (numbers != np.round(numbers))
        verb = f" not a whole number (a class label), which {metric.name} needs"
        reasons += _report(column, "value", fractional, where, quoted, verb=verb)
    if metric.min_value is not None:
        low = finite & (numbers < metric.min_value)
        verb = f" below {metric.min_value:g}, which {metric.name} does not accept"
        reasons += _report(column, "value", low, where, quoted, verb=verb)
    if metric.kind == "integer_labels":  # MLE-bench casts class ids with astype(int), which truncates
        return reasons, np.trunc(np.where(finite, numbers, 0)).astype(np.int64)
    return reasons, numbers


def _parse_floats(texts: np.ndarray | pd.Series) -> np.ndarray:
    """Parse strings as floats, NaN where pandas' ``to_numeric`` cannot parse them.

    Arrow parses a column of plain numbers several times faster than pandas (13M-row icecube); it
    accepts no text that pandas rejects and reads what it accepts identically, and on anything it
    refuses (blanks, padding, words) the whole column goes through pandas instead.
    """
    try:
        parsed = pc.cast(pa.array(texts, type=pa.string()), pa.float64())
        return np.array(parsed.to_numpy(zero_copy_only=False))  # a writable copy
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        objects = texts.to_numpy(dtype=object) if isinstance(texts, pd.Series) else texts
        return pd.to_numeric(pd.Series(objects, dtype=object), errors="coerce").to_numpy(dtype=np.float64)


def _numbers(column: str, texts: np.ndarray | pd.Series, where: _Where) -> tuple[np.ndarray, list[str]]:
    """Parse a column of strings as floats; empty cells, NaN, infinities and non-numbers are problems."""
    numbers = _parse_floats(texts)
    failed = np.flatnonzero(np.isnan(numbers))  # only these need a closer look
    if not failed.size and not np.isinf(numbers).any():
        return numbers, []
    texts = np.asarray(texts.to_numpy(dtype=object) if isinstance(texts, pd.Series) else texts)
    words = pd.Series(texts[failed], dtype=object).str.strip()
    empty, nan_word = np.zeros(len(texts), dtype=bool), np.zeros(len(texts), dtype=bool)
    empty[failed] = words.eq("").to_numpy(dtype=bool)
    nan_word[failed] = words.str.lower().isin(_NAN_WORDS).to_numpy(dtype=bool)
    unparsed = np.isnan(numbers) & ~empty & ~nan_word
    quoted = _quoted(texts)
    problems = [
        *_report(column, "empty value", empty, where),
        *_report(column, "NaN value", nan_word, where, quoted),
        *_report(column, "infinite value", np.isinf(numbers), where, quoted),
        *_report(column, "value", unparsed, where, quoted, verb=" not a number"),
    ]
    return numbers, problems


def _is_integer(token: str) -> bool:
    try:
        int(token)
    except ValueError:
        return False
    return True


def _permutation_problems(
    column: str, y_true: np.ndarray, texts: np.ndarray, order: np.ndarray, where: _Where
) -> list[str]:
    """Rows (by submission position) whose tokens are not exactly a reordering of the answer row's."""
    bad = np.zeros(len(texts), dtype=bool)
    detail = {}
    for answer_row, row in enumerate(order):
        expected, got = str(y_true[answer_row]).split(), str(texts[row]).split()
        if sorted(expected) != sorted(got):
            bad[row] = True
            missing, extra = set(expected) - set(got), set(got) - set(expected)
            detail[row] = (
                f"{len(got)} tokens for {len(expected)} expected"
                + (f", missing {sorted(missing)[:3]}" if missing else "")
                + (f", unknown {sorted(extra)[:3]}" if extra else "")
                + (", repeated tokens" if not missing and not extra and len(got) != len(set(got)) else "")
            )
    return _report(
        column, "value", bad, where, lambda r: detail[r], verb=" not a reordering of the expected tokens"
    )


def _row_sum_problems(matrix: np.ndarray, where: _Where, tolerance: float = ROW_SUM_TOLERANCE) -> list[str]:
    sums = matrix.sum(axis=1)
    off = np.isfinite(sums) & ~np.isclose(sums, 1.0, rtol=0.0, atol=tolerance)
    n = int(off.sum())
    if not n:
        return []
    shown = [f"{where(r)} sums to {sums[r]:.10g}" for r in np.flatnonzero(off)[:SHOWN]]
    return [
        f"class probabilities must sum to 1 (within {tolerance:g}) in every row: "
        f"{count(n, 'row')} {'does' if n == 1 else 'do'} not: {some(shown, n)}"
    ]


def _report(
    column: str,
    noun: str,
    bad: np.ndarray,
    where: _Where,
    detail: Callable[[int], str] | None = None,
    *,
    verb: str = "",
) -> list[str]:
    """Describe the rows flagged in ``bad`` as one reason, naming the column and up to five rows."""
    n = int(np.count_nonzero(bad))
    if not n:
        return []
    shown = [f"{where(r)}: {detail(r)}" if detail else where(r) for r in np.flatnonzero(bad)[:SHOWN]]
    if verb:
        verb = (" is" if n == 1 else " are") + verb
    return [f"column {column!r}: {count(n, noun)}{verb}: {some(shown, n)}"]


def _quoted(texts: np.ndarray | pd.Series) -> Callable[[int], str]:
    if isinstance(texts, pd.Series):
        return lambda row: repr(texts.iloc[row])
    return lambda row: repr(texts[row])
