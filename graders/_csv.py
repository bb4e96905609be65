"""A strict CSV reader: every cell a string, and a clear reason when a file cannot be read."""

from __future__ import annotations

import csv
import io
from pathlib import Path

import numpy as np
import pandas as pd

from ._text import SHOWN, count, quote, some


class UnreadableCSV(ValueError):
    """A file that is not a readable CSV (an invalid submission, or a bug when it is an answers file)."""


def read_csv_strings(path: Path) -> pd.DataFrame:
    """Read a CSV strictly, every cell a ``str``; raise :class:`UnreadableCSV` saying what is wrong.

    Blank lines are skipped; quoted fields may hold commas and newlines. No cell is ever turned into
    NaN, so an empty cell stays ``""`` and the text ``nan`` stays ``"nan"`` for the caller to judge.
    """
    if not path.is_file():
        raise UnreadableCSV(f"no file at {path}" if not path.exists() else f"{path} is not a file")
    if path.suffix.lower() != ".csv":
        raise UnreadableCSV(f"{path.name!r} is not a .csv file")
    data = path.read_bytes()
    try:
        text = data.decode("utf-8-sig")  # a leading byte-order mark is tolerated
    except UnicodeDecodeError as exc:
        raise UnreadableCSV(
            f"{path.name} is not UTF-8 text: byte 0x{data[exc.start]:02x} at offset {exc.start} "
            f"({exc.reason})"
        ) from None
    if not text.strip():
        raise UnreadableCSV(f"{path.name} is empty")
    try:
        rows = list(filter(None, csv.reader(io.StringIO(text, newline=""), strict=True)))  # drop blank lines
    except csv.Error as exc:
        raise UnreadableCSV(f"{path.name} could not be parsed as CSV: {exc}") from None
    header, body = rows[0], rows[1:]
    repeated = pd.Index(header)[pd.Index(header).duplicated()].unique().tolist()
    if repeated:
        raise UnreadableCSV(f"{path.name} repeats column names in its header: {quote(repeated)}")
    widths = np.fromiter(map(len, body), dtype=np.intp, count=len(body))
    ragged = np.flatnonzero(widths != len(header))
    if ragged.size:
        shown = [f"data row {i + 1} has {widths[i]}" for i in ragged[:SHOWN]]
        raise UnreadableCSV(
            f"{path.name}: {count(ragged.size, 'row')} {'does' if ragged.size == 1 else 'do'} not have the "
            f"header's {len(header)} fields: "
            f"{some(shown, ragged.size)}"
        )
    return pd.DataFrame(body, columns=header, dtype=object)
