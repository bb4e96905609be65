"""Columns of cells as strings: parse them as numbers and describe the rows at fault (private).

Shared by :mod:`graders.submission` (ids, rows) and :mod:`graders.kinds` (the value checks), so every
reason names rows and quotes values the same way.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from ._text import SHOWN, count, some
from ._threads import chunks_of, chunkwise

NAN_WORDS = frozenset({"nan", "+nan", "-nan"})
"""Texts that parse as NaN and are reported as such (not as "not a number")."""


class Where:
    """Names rows in messages: by id when the id column is there, else by 1-based row number."""

    def __init__(self, ids: np.ndarray | pd.Series | None, prefix: str = "") -> None:
        self.ids, self.prefix = ids, prefix

    def __call__(self, row: int) -> str:
        """Name the row at 0-based position ``row``."""
        if self.ids is None:
            return f"{self.prefix}row {row + 1}"
        value = self.ids.iloc[row] if isinstance(self.ids, pd.Series) else self.ids[row]
        return f"{self.prefix}id {str(value)!r}"


def as_text(values: np.ndarray | pd.Series) -> np.ndarray:
    """Return the values as ``str`` objects in a 1-D object array.

    Never numpy's ``astype(str)`` on cells: its fixed-width array gives every row the longest value's
    width, so one 2 MB cell among 5,000 rows asks for 39 GiB.
    """
    flat = np.asarray(values, dtype=object).ravel()
    if pd.api.types.infer_dtype(flat, skipna=False) == "string":
        return flat  # already all ``str``: converting would copy every string (a million labels: ~70 MB)
    return pd.Series(flat, dtype=object, copy=False).astype(str).to_numpy(dtype=object)


def objects(texts: np.ndarray | pd.Series) -> np.ndarray:
    """Return the cells as a 1-D object array (a Series is copied out of its Arrow buffer)."""
    return np.asarray(texts.to_numpy(dtype=object) if isinstance(texts, pd.Series) else texts)


def strings(texts: np.ndarray | pd.Series) -> np.ndarray | pd.api.extensions.ExtensionArray:
    """Return the cells as a 1-D array without a Python ``str`` per cell.

    A Series gives its own array (Arrow-backed when Arrow read the file), which indexes and slices like
    numpy's; anything else becomes an object array.
    """
    return texts.array if isinstance(texts, pd.Series) else np.asarray(texts, dtype=object)


def text_codes(texts: list[pa.Array | pa.ChunkedArray]) -> tuple[np.ndarray, pa.Array]:
    """Code the texts of Arrow string arrays, in order, by first appearance: int32 codes and their dictionary.

    Chunk by chunk into one dictionary: joining the chunks first copies every text (smartphone: 3 MB more).
    The texts must hold no null.
    """
    encoded = pa.chunked_array(chunks_of(texts), type=pa.large_string()).dictionary_encode()
    if not encoded.num_chunks:  # Arrow drops empty chunks
        return np.empty(0, dtype=np.int32), pa.array([], type=pa.large_string())
    return chunkwise(lambda c: c.indices, encoded.chunks, np.int32), encoded.chunks[-1].dictionary


def report(
    column: str,
    noun: str,
    bad: np.ndarray,
    where: Where,
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


def quoted(texts: np.ndarray | pd.Series) -> Callable[[int], str]:
    """Show a row's cell in ``repr`` quotes (a ``detail`` for :func:`report`)."""
    if isinstance(texts, pd.Series):
        return lambda row: repr(texts.iloc[row])
    return lambda row: repr(texts[row])


def parse_floats(texts: np.ndarray | pd.Series) -> np.ndarray:
    """Parse strings as floats, NaN where pandas' ``to_numeric`` cannot parse them.

    Arrow parses a column of plain numbers several times faster than pandas (13M-row icecube); it
    accepts no text that pandas rejects and reads what it accepts identically, and on anything it
    refuses (blanks, padding, words) the whole column goes through pandas instead.
    """
    try:
        return chunkwise(lambda c: pc.cast(c, pa.float64()), [pa.array(texts, type=pa.large_string())], float)
    except (pa.ArrowInvalid, pa.ArrowTypeError):
        cells = pd.Series(objects(texts), dtype=object)
        return pd.to_numeric(cells, errors="coerce").to_numpy(dtype=np.float64)


def numbers(column: str, texts: np.ndarray | pd.Series, where: Where) -> tuple[np.ndarray, list[str]]:
    """Parse a column of strings as floats; empty cells, NaN, infinities and non-numbers are problems."""
    values = parse_floats(texts)
    failed = np.flatnonzero(np.isnan(values))  # only these need a closer look
    if not failed.size and not np.isinf(values).any():
        return values, []
    texts = objects(texts)
    words = pd.Series(texts[failed], dtype=object).str.strip()
    empty, nan_word = np.zeros(len(texts), dtype=bool), np.zeros(len(texts), dtype=bool)
    empty[failed] = words.eq("").to_numpy(dtype=bool)
    nan_word[failed] = words.str.lower().isin(NAN_WORDS).to_numpy(dtype=bool)
    unparsed = np.isnan(values) & ~empty & ~nan_word
    shown = quoted(texts)
    problems = [
        *report(column, "empty value", empty, where),
        *report(column, "NaN value", nan_word, where, shown),
        *report(column, "infinite value", np.isinf(values), where, shown),
        *report(column, "value", unparsed, where, shown, verb=" not a number"),
    ]
    return values, problems


def is_integer(token: str) -> bool:
    """Whether Python's ``int`` reads ``token``."""
    try:
        int(token)
    except ValueError:
        return False
    return True
