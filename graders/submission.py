"""Read a submission CSV and check it against the answers, reporting every problem at once.

The same two functions serve the grader and the validation an agent can call, so an agent sees exactly
the reasons its submission would be rejected for. Every cell is read as a string: ids are compared
exactly (``"0300"`` is not ``"300"``), labels are compared exactly, an empty RLE cell is an empty mask,
and a literal ``nan`` or ``inf`` in a numeric column is caught instead of silently parsed.
"""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from mlebench_spec.declarations import Submission

from ._cells import Where, as_text, text_codes
from ._checks import Context
from ._csv import UnreadableCSV, read_csv_strings, release_arrow_memory
from ._text import SHOWN, count, quote, some
from ._threads import SMALL, chunks_of, chunkwise, each
from .errors import InvalidSubmission
from .inputs import Inputs


def read_submission(path: Path | str) -> pd.DataFrame:
    """Read a submission CSV with every cell as a string.

    Raises
    ------
    InvalidSubmission
        If the path is missing or is not a regular file (a symbolic link, a folder, a named pipe, a socket
        or a device: it is never followed or opened), or the file cannot be read, is not named ``*.csv``,
        is empty, not UTF-8, not parsable as CSV, has duplicate column names, or has a row whose field
        count differs from the header's.

    """
    path = Path(path)
    problem = file_problem(path)
    if problem:
        raise InvalidSubmission(problem)
    try:
        return read_csv_strings(path)
    except UnreadableCSV as exc:
        raise InvalidSubmission(str(exc)) from None


_NOT_REGULAR = [
    (stat.S_ISDIR, "a folder"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISSOCK, "a socket"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
]


def file_problem(path: Path) -> str:
    """Why ``path`` cannot be read as a submission without following or opening it ("" when it can).

    Only a regular file is a submission: a symbolic link is refused, not followed (it could point at the
    answers), and a named pipe or a device is never opened (reading one could block forever).
    """
    try:
        mode = path.lstat().st_mode
    except FileNotFoundError:
        return f"no file at {path}"
    except OSError as exc:
        return f"{path} cannot be inspected: {exc.strerror or exc}"
    if stat.S_ISLNK(mode):
        target = os.readlink(path)
        return f"{path.name} is a symbolic link (to {target!r}), not a regular file; submit the file itself"
    for test, what in _NOT_REGULAR:
        if test(mode):
            return f"{path.name} is {what}, not a regular file"
    if not stat.S_ISREG(mode):
        return f"{path.name} is not a regular file (mode {stat.filemode(mode)})"
    return ""


def read_answers(path: Path | str) -> pd.DataFrame:
    """Read a private answers CSV exactly as submissions are read; a problem is a ValueError (our bug)."""
    return read_csv_strings(Path(path))


def validate(
    submission: pd.DataFrame,
    answers: pd.DataFrame,
    spec: Submission,
    inputs: Inputs,
    *,
    metric_args: Mapping[str, Any] | None = None,
) -> tuple[np.ndarray | pd.DataFrame, np.ndarray | pd.DataFrame]:
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
    inputs
        The metric's validation entry (:func:`graders.inputs.get_inputs`, or the registry's
        :class:`~graders.registry.Metric`, which extends it); its ``kind`` decides the value checks and
        the shape of the arrays.
    metric_args
        The competition's metric arguments; ``height`` and ``width`` bound RLE masks.

    Returns
    -------
    tuple
        ``y_true`` and ``y_pred`` in the answers' row order, shaped as the kind says
        (:mod:`graders.kinds`): 1-D strings, floats or integers, 2-D floats (one column per answer
        column, in ``spec.target_columns`` order) or frames.

    Raises
    ------
    InvalidSubmission
        With one reason per problem found.
    ValueError
        If the answers or the declaration are inconsistent (a bug on our side, never the agent's).

    """
    kind = inputs.kind
    y_true = _answer_values(answers, spec, inputs)
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
        id_reasons, order = _match_ids(answers[spec.id_column], ids, spec.id_column, occurrence=True)
    else:
        id_reasons, order = _match_ids(answers[spec.id_column], ids, spec.id_column, spec.integer_ids)
    reasons += id_reasons
    if len(submission) != len(answers):
        reasons.append(
            f"wrong number of rows: expected {len(answers)} (one per id in the answers), "
            f"got {len(submission)}"
        )
    context = Context(inputs, spec, metric_args or {}, Where(ids))
    values = {}
    for column in (c for c in spec.target_columns if c in submission.columns):
        texts = submission[column]  # a Series: numbers parse straight from its Arrow buffer
        problems, values[column] = kind.cells(column, texts, context)
        reasons += problems
    reasons += kind.rows(values, y_true, order, context)
    if reasons or order is None:
        raise InvalidSubmission(reasons)
    in_order = _is_identity(order)  # the usual case: no reordering copy needed
    return y_true, kind.predictions(values, spec, None if in_order else order)


def _is_identity(order: np.ndarray | range) -> bool:
    """Whether ``order`` is ``0, 1, ..., n - 1`` (n increasing ints from 0 to n - 1 can be nothing else)."""
    n = len(order)
    if isinstance(order, range):
        return order == range(n)
    return n == 0 or bool(order[0] == 0 and order[-1] == n - 1 and np.all(order[1:] > order[:-1]))


def _answer_values(answers: pd.DataFrame, spec: Submission, inputs: Inputs) -> np.ndarray | pd.DataFrame:
    """Return the answers as the metric takes them; a problem here is a ValueError (our bug)."""
    inputs.kind.check_targets(spec.target_columns, inputs.name)
    missing = [c for c in spec.columns if c not in answers.columns]
    if missing:
        raise ValueError(f"the answers lack columns {missing} named in submission.columns {spec.columns}")
    if answers.empty:
        raise ValueError("the answers have no rows")
    return inputs.kind.truth(answers, spec)


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
        keys, _ = _keys(answers[spec.id_column], submission[spec.id_column], spec.integer_ids)
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


def _paired_occurrences(keys: np.ndarray, n: int) -> np.ndarray | range | None:
    """Pair the k-th answer row of each id with the k-th submitted row of that id, when all pair up.

    ``keys`` are :func:`_keys`' answer then submitted keys. Returns the submission row of each answer row (a
    ``range`` when both list the same ids in the same order), or None when the two lists do not hold the same
    ids equally often, or their keys cannot be sorted (the caller then works out what is wrong). Sorting both
    lists stably puts each id's rows together in file order, so the k-th of each meet. This holds a few arrays
    of the rows, less than occurrence keys and their hash tables (measured: docs/performance.md, "Figures
    behind design choices").
    """
    answer, submitted = keys[:n], keys[n:]
    if len(submitted) != n or keys.dtype.kind not in "iuO":
        return None
    if np.array_equal(answer, submitted):
        return range(n)
    try:
        by_answer, by_submitted = np.argsort(answer, kind="stable"), np.argsort(submitted, kind="stable")
    except TypeError:  # Python keys of unlike types
        return None
    if not np.array_equal(answer[by_answer], submitted[by_submitted]):
        return None
    order = np.empty(n, dtype=np.intp)
    order[by_answer] = by_submitted
    return order


def _looked_up(keys: np.ndarray, n: int) -> np.ndarray | range | None:
    """Match ``n`` answer keys, each once, with as many submitted keys by a table indexed by key.

    For keys that are non-negative ints below eight times their count (text ids' dictionary codes, denoising's
    pixel keys): the table is no larger than a hash table of them, and filling and reading it is several times
    faster than hashing (measured: docs/performance.md, "Figures behind design choices"). Returns the
    submission row of each answer row (a ``range`` when both list the keys in the same order), or None when
    the keys are not such ints, an answer key repeats, or the submitted keys are not the answer keys once
    each: the caller then works out what is wrong.
    """
    if keys.dtype.kind not in "iu" or not n or len(keys) != 2 * n:
        return None
    answer, submitted = keys[:n], keys[n:]
    high = int(keys.max())
    if keys.min() < 0 or high >= 8 * len(keys):
        return None
    row = np.full(high + 1, -1, dtype=np.int32 if n < 2**31 else np.int64)
    rows = np.arange(n, dtype=row.dtype)
    row[answer] = rows
    if not np.array_equal(row[answer], rows):  # a later row of a repeated key won
        return None
    if np.array_equal(answer, submitted):
        return range(n)
    at = row[submitted]  # each submitted row's answer row
    if (at < 0).any():
        return None
    seen = np.zeros(n, dtype=bool)
    seen[at] = True
    if not seen.all():  # a key submitted twice, so another is missing
        return None
    order = np.empty(n, dtype=np.intp)
    order[at] = rows
    return order


def _occurrence_keys(
    both: np.ndarray, id_text: Callable[[int], str], n: int
) -> tuple[np.ndarray, Callable[[int], str]]:
    """Turn :func:`_keys`' keys into (id, occurrence) pairs as int64 keys, and the function that names one.

    The k-th row of an id gets a key of its own (named ``"7 #2"`` for the second row of id 7), so ids repeated
    alike on both sides meet one to one (``submission.match: occurrence``). The pairs are coded as integers:
    texts such as ``"7 #2"`` cost far more memory (measured: docs/performance.md, "Figures behind design
    choices").
    """
    codes, uniques = pd.factorize(both)
    nth = np.concatenate(
        [pd.Series(side).groupby(side, sort=False).cumcount() for side in (codes[:n], codes[n:])]
    )
    radix = int(nth.max()) + 1
    keys = codes.astype(np.int64) * radix + nth

    def name(key: int) -> str:
        """Return the id text of a key, with its occurrence number."""
        code, k = divmod(int(key), radix)
        return f"{id_text(uniques[code])} #{k + 1}"

    return keys, name


def _match_positions(
    answer_ids: np.ndarray, ids: np.ndarray | None, id_column: str
) -> tuple[list[str], np.ndarray | range | None]:
    """Rows meet by position (``submission.match: position``): the ids must equal the answers' row by row.

    MLE-bench v1 pairs these rows without looking at the ids; checking them turns a silently misaligned
    submission into a precise reason instead of a wrong score.
    """
    if ids is None:
        return [], None
    if len(ids) != len(answer_ids):
        return [], None  # the row-count reason is reported by the caller
    wrong = np.flatnonzero(as_text(ids) != as_text(answer_ids))
    if wrong.size:
        shown = [f"row {i + 1}: {ids[i]!r}, expected {answer_ids[i]!r}" for i in wrong[:SHOWN]]
        return [
            f"rows are matched by position, so column {id_column!r} must list the answers' values in their "
            f"order; {count(wrong.size, 'row')} differ: {some(shown, wrong.size)}"
        ], None
    return [], range(len(answer_ids))


_CANONICAL_INT = r"^(0|-?[1-9][0-9]{0,17})$"  # the one text of an int64 (no sign, zero or space padding)
_INTEGER_TEXT = r"^\s*[+-]?[0-9]{1,18}(\.0*)?\s*$"  # what pandas reads as a whole number
_INTEGER_RE = re.compile(_INTEGER_TEXT.replace(r"\s", r"[\t\n\f\r ]"))  # ``\s`` as Arrow's RE2 reads it


def _integer_values(text: pa.Array) -> np.ndarray:
    """Whole numbers written as :data:`_INTEGER_TEXT` allows, as int64."""
    trimmed = pc.utf8_trim_whitespace(text)
    whole = pc.replace_substring_regex(trimmed, r"^\+|\.0*$", "")  # Arrow's cast takes no plus sign
    return pc.cast(whole, pa.int64()).to_numpy(zero_copy_only=False)


def _keys(
    answer_ids: pd.Series, ids: pd.Series | None, integer_ids: bool = False
) -> tuple[np.ndarray, Callable[[int], str]]:
    """Answer ids then submitted ids as int64 keys, and the function that names a key's id text.

    Ids that are all an integer's canonical text become those ints; ids that are all canonical non-negative
    ints joined by ``_`` with one number of parts (``"12_3_45"``) become one int each, the parts read as
    digits of a mixed radix; other text ids become their codes in one Arrow dictionary of both lists. Equality
    is unchanged (only canonical digits take part, so ``"007"`` never meets ``"7"`` and ``"1_07"`` never meets
    ``"1_7"``, and equal texts share a code), and hashing ints is several times faster than hashing strings,
    which are never copied into Python objects (text ids as objects cost far more memory and time to
    factorize: docs/performance.md, "Figures behind design choices"). With ``integer_ids``
    (``submission.integer_ids``) ids are compared by integer value, as v1 compares ids pandas reads as
    numbers: ``"0012"``, ``"12"`` and ``"12.0"`` are one id. Fewer than :data:`SMALL` ids are keyed in Python,
    as fast, with the same equality and names: Arrow's kernels page in memory on first use (measured:
    docs/performance.md, "Figures behind design choices").
    """
    columns = [answer_ids] if ids is None else [answer_ids, ids]
    if sum(map(len, columns)) >= SMALL:
        try:
            texts = [pa.array(c, type=pa.large_string()) for c in columns]
        except (pa.ArrowInvalid, pa.ArrowTypeError):
            texts = []
        if texts and not any(t.null_count for t in texts):
            keys, name = _arrow_keys(texts, integer_ids)
            release_arrow_memory()  # the hash table and copies Arrow freed, before the caller builds more
            return keys, name
    # few ids, or ids Arrow cannot hold whole (a null, a non-string: never all integer texts, so exact)
    values = np.concatenate([c.to_numpy(dtype=object) for c in columns])
    if integer_ids and all(isinstance(v, str) and _INTEGER_RE.fullmatch(v) for v in values):
        return np.array([int(v.partition(".")[0]) for v in values], np.int64), str
    return values, str


def _all_match(texts: list, pattern: str) -> bool:
    """Tell whether every text of every array matches ``pattern`` (False when an array is empty)."""
    return all(
        len(t)
        and re.match(pattern, t[0].as_py()) is not None  # spares scanning millions of text ids
        and chunkwise(lambda c: pc.match_substring_regex(c, pattern), [t], bool).all()
        for t in texts
    )


def _not_plain_digits(text: pa.Array) -> pa.Array:
    """Flag the texts that are not 1 to 18 ASCII digits without a leading zero (a non-negative int's text)."""
    length = pc.binary_length(text)
    leading_zero = pc.and_(pc.starts_with(text, "0"), pc.greater(length, 1))
    return pc.or_(pc.invert(pc.ascii_is_decimal(text)), pc.or_(pc.greater(length, 18), leading_zero))


def _all_canonical_ints(texts: list) -> bool:
    """Tell whether every text of every array matches :data:`_CANONICAL_INT`.

    Plain digits are checked by Arrow kernels, in half the regex's time (icecube's 26M ids); the regex
    runs only when some id is not plain digits (a sign, or something that is no int at all).
    """
    if not all(len(t) and re.match(_CANONICAL_INT, t[0].as_py()) for t in texts):
        return False
    return not chunkwise(_not_plain_digits, texts, bool).any() or _all_match(texts, _CANONICAL_INT)


def _arrow_keys(texts: list, integer_ids: bool) -> tuple[np.ndarray, Callable[[int], str]]:
    """Return :func:`_keys`'s keys and namer for id columns Arrow holds without nulls."""
    if integer_ids:
        if _all_match(texts, _INTEGER_TEXT):
            return np.concatenate([_integer_values(t) for t in texts]), str
    elif _all_canonical_ints(texts):
        return chunkwise(lambda c: pc.cast(c, pa.int64()), texts, np.int64), str
    else:
        parts = texts[0][0].as_py().count("_") + 1 if len(texts[0]) else 0
        if parts > 1 and _all_match(texts, _composite_pattern(parts)):
            composite = _composite_keys(texts, parts)
            if composite is not None:
                return composite
    codes, dictionary = text_codes(texts)
    return codes, lambda key: dictionary[int(key)].as_py()


_CANONICAL_PART = "(?:0|[1-9][0-9]{0,17})"  # a non-negative int64's one text


def _composite_pattern(parts: int) -> str:
    """Return the regex of ``parts`` canonical non-negative ints joined by ``_``."""
    return "^" + "_".join([_CANONICAL_PART] * parts) + "$"


def _composite_parts(texts: list, parts: int, rows: int = 1 << 18) -> list[np.ndarray]:
    """Return part ``j`` of every id matching :func:`_composite_pattern`, all lists end to end, as int64.

    Splitting copies every part as a string; a slice of ``rows`` ids at a time keeps those copies small
    (measured: docs/performance.md, "Figures behind design choices").
    """
    columns = [np.empty(sum(map(len, texts)), dtype=np.int64) for _ in range(parts)]
    done = 0
    for chunk in chunks_of(texts):
        for start in range(0, len(chunk), rows):
            pieces = pc.split_pattern(chunk.slice(start, rows), "_")
            flat = pc.cast(pieces.flatten(), pa.int64()).to_numpy()
            for j, column in enumerate(columns):
                column[done : done + len(pieces)] = flat[j::parts]
            done += len(pieces)
            del pieces, flat
    return columns


def _composite_keys(texts: list, parts: int) -> tuple[np.ndarray, Callable[[int], str]] | None:
    """Keys of ids that are ``parts`` canonical ints joined by ``_``, or None when they do not fit int64.

    Part ``j`` is a digit in base ``radix[j]`` (one more than its largest value in any list), so two ids share
    a key exactly when they share every part, which for canonical digits is when their texts are equal. The
    digits are combined in place, in the first part's array, not by a matrix product and its copies (measured:
    docs/performance.md, "Figures behind design choices").
    """
    columns = _composite_parts(texts, parts)
    radix = [int(column.max(initial=0)) + 1 for column in columns]
    if np.prod([float(r) for r in radix]) >= 2.0**62:
        return None
    keys = columns[0]
    for column, base in zip(columns[1:], radix[1:], strict=True):
        keys *= base
        keys += column
    weights = [int(np.prod(radix[j + 1 :])) for j in range(parts)]

    def name(key: int) -> str:
        key, digits = int(key), []
        for w in weights:
            digits.append(str(key // w))
            key %= w
        return "_".join(digits)

    return keys, name


def _same_texts(answer_ids: pd.Series, ids: pd.Series) -> pa.Array | pa.ChunkedArray | None:
    """Return the answers' ids as Arrow text when the submitted ids are the same, text for text; else None.

    One Arrow kernel tells (measured: docs/performance.md, "Figures behind design choices"); the submission
    then needs no keys of its own.
    """
    if len(ids) != len(answer_ids) or len(ids) < 2:
        return None
    try:
        theirs, mine = (pa.array(c, type=pa.large_string()) for c in (answer_ids, ids))
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        return None
    if theirs.null_count or mine.null_count or not pc.all(pc.equal(theirs, mine)).as_py():
        return None
    return theirs


def _strictly_increasing(texts: pa.Array | pa.ChunkedArray, rows: int = 1 << 20) -> bool:
    """Whether each text is below the next, by length, then by text (a canonical integer's numeric order).

    Strictly increasing ids are distinct: two passes of Arrow kernels tell, where keying and hashing them
    took four times as long (measured: docs/performance.md, "Figures behind design choices").
    """
    n = len(texts)

    def increasing(start: int) -> bool:
        """Whether each text from ``start`` on, ``rows`` of them, is below the text after it."""
        m = min(rows, n - 1 - start)
        before, after = texts.slice(start, m), texts.slice(start + 1, m)
        length_before, length_after = pc.binary_length(before), pc.binary_length(after)
        later = pc.and_(pc.equal(length_after, length_before), pc.greater(after, before))
        return bool(pc.all(pc.or_(pc.greater(length_after, length_before), later)).as_py())

    return all(each(increasing, range(0, n - 1, rows)))


def _match_ids(
    answer_ids: pd.Series,
    ids: pd.Series | None,
    id_column: str,
    integer_ids: bool = False,
    occurrence: bool = False,
) -> tuple[list[str], np.ndarray | range | None]:
    """Compare the submission's ids with the answers' ids, exactly, as strings.

    Returns the reasons found and, when the ids match one to one, the submission row of each answer
    row (a ``range`` when they are in the same order; else None). Both id lists are encoded together
    once, so everything after is integer work; a submission listing the answers' ids in their order (the
    usual case) only needs the answers checked. With ``occurrence``, the k-th row of an id meets the k-th
    answer row of that id (:func:`_occurrence_keys`).
    """
    n = len(answer_ids)
    if occurrence:
        if ids is None:  # an id's rows are told apart, so answers may repeat ids
            return [], None
        both, id_text = _keys(answer_ids, ids)
        paired = _paired_occurrences(both, n)
        if paired is not None:
            return [], paired
        both, id_text = _occurrence_keys(both, id_text, n)
    elif ids is not None and (same := _same_texts(answer_ids, ids)) is not None:
        if not integer_ids and _strictly_increasing(same):  # distinct texts ("12", "12.0": one int)
            return [], range(n)
        keys, id_text = _keys(answer_ids, None, integer_ids)  # the submission's are the same ids
        if pd.Index(keys, copy=False).is_unique:
            return [], range(n)
        both = np.concatenate([keys, keys])  # the answers repeat an id: named below
    else:
        both, id_text = _keys(answer_ids, ids, integer_ids)
    if ids is not None and len(ids) == n:
        paired = _looked_up(both, n)
        if paired is not None:
            return [], paired
    if ids is not None and len(ids) == n and np.array_equal(both[:n], both[n:]):
        if pd.Index(both[:n], copy=False).is_unique:  # pandas copies the array by default (0.25 s at 13M)
            return [], range(n)  # not np.arange: 13M fresh int64s cost icecube 0.26 s
    codes, keys = pd.factorize(both, use_na_sentinel=False)

    def name(code: int) -> str:
        """Return the id text of a code."""
        return id_text(keys[code])

    if codes[:n].max() + 1 < n:  # answer ids come first, so unique answer ids are coded 0 .. n-1
        repeated = [name(c) for c in np.flatnonzero(np.bincount(codes[:n]) > 1)[:SHOWN]]
        raise ValueError(f"the answers repeat ids in {id_column!r}: {quote(repeated)}")
    if ids is None:
        return [], None
    submitted = codes[n:]
    counts = np.bincount(submitted, minlength=len(keys))
    reasons = []
    repeated = np.flatnonzero(counts > 1)
    if repeated.size:
        shown = [f"{name(c)!r} ({counts[c]} times)" for c in repeated[:SHOWN]]
        verb = "id appears" if repeated.size == 1 else "ids appear"
        reasons.append(
            f"duplicate ids in column {id_column!r}: {repeated.size} {verb} more than once: "
            f"{some(shown, repeated.size)}"
        )
    missing = np.flatnonzero(counts[:n] == 0)
    if missing.size:
        reasons.append(
            f"missing ids: {missing.size} of the {n} ids in the answers are not in column "
            f"{id_column!r}: {some([repr(name(c)) for c in missing[:SHOWN]], missing.size)}"
        )
    extra = n + np.flatnonzero(counts[n:])  # codes follow first appearance, so this keeps file order
    if extra.size:
        verb = "is" if extra.size == 1 else "are"
        reasons.append(
            f"unexpected ids: {count(extra.size, 'id')} in column {id_column!r} {verb} not in the answers: "
            f"{some([repr(name(c)) for c in extra[:SHOWN]], extra.size)}"
        )
    if reasons:
        return reasons, None
    order = np.empty(n, dtype=np.intp)
    order[submitted] = np.arange(n)
    return [], order
