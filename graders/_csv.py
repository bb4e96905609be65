"""A strict CSV reader: every cell a string, and a clear reason when a file cannot be read."""

from __future__ import annotations

import csv
import io
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv

from ._text import SHOWN, count, quote, some


class UnreadableCSV(ValueError):
    """A file that is not a readable CSV (an invalid submission, or a bug when it is an answers file)."""


_STRING = pd.StringDtype("pyarrow", na_value=np.nan)
if "ARROW_DEFAULT_MEMORY_POOL" not in os.environ:
    # Arrow's own pool (mimalloc) keeps arenas a grader never reuses: reading a 0.5 MB file raised the peak by
    # 15 MB, and icecube's two 13M-row files by 200 MB more than the C library's malloc, at the same speed
    # (benchmarks/grading.py). A grading process takes the system pool unless its caller chose another.
    pa.set_memory_pool(pa.system_memory_pool())
csv.field_size_limit(2**31 - 1)  # no cap on a field's length (an RLE mask of a whole fragment is huge)


def _read_with_arrow(data: bytes) -> pd.DataFrame | None:
    """Parse a well-formed file with Arrow, every cell a string and none turned into NaN.

    Returns None when Arrow objects to anything, the header repeats a name, or quotes are unbalanced
    (Arrow would read an unterminated quote to the end of the file): the caller's slower reader then
    finds the problem and names it.
    """
    if b'"' in data and data.count(b'"') % 2:
        return None
    end = data.find(b"\n")
    try:
        first_line = data[: end if end >= 0 else len(data)].rstrip(b"\r").decode("utf-8-sig")
        header = next(csv.reader([first_line], strict=True), [])
    except (UnicodeDecodeError, csv.Error):
        return None
    if not header or len(set(header)) != len(header):
        return None
    convert = pacsv.ConvertOptions(
        column_types={name: pa.large_string() for name in header},
        null_values=[],
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
        check_utf8=True,
    )
    parse = pacsv.ParseOptions(newlines_in_values=True, ignore_empty_lines=True)
    table = None
    # Arrow parses in blocks that must hold whole rows. Blocks of 4 MiB keep fewer parse buffers alive at
    # once than 16 MiB did (reading billion-word's 57 MB file peaks 55 MB lower; icecube's 277 MB, 30 MB) at
    # the same speed; 1 MiB blocks made icecube's hundreds of chunks slower to check. A run-length mask can
    # make one row megabytes long (vesuvius), so a file Arrow cannot cut into such blocks is one block.
    for block in (4 << 20, len(data) + 1):
        try:
            options = pacsv.ReadOptions(use_threads=True, block_size=block)
            # a BufferReader hands Arrow slices of ``data`` (BytesIO copied each block: 0.2 s at icecube)
            table = pacsv.read_csv(
                pa.BufferReader(data), read_options=options, parse_options=parse, convert_options=convert
            )
            break
        except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeDecodeError):
            continue
    if table is None:
        return None
    if table.column_names != header:
        return None
    frame = pd.DataFrame({name: pd.Series(table[name], dtype=_STRING, copy=False) for name in header})
    release_arrow_memory()  # the parser's block buffers
    return frame


def release_arrow_memory() -> None:
    """Hand the memory Arrow's allocator keeps after freeing (parse buffers, combined chunks) back to the OS.

    Allocators hold freed pages for reuse (the system pool's malloc trims on this call); a grader reads two
    large files and then builds Python objects from them, so pages kept from the first step only raise the
    peak.
    """
    pa.default_memory_pool().release_unused()


def read_csv_strings(path: Path) -> pd.DataFrame:
    """Read a CSV strictly, every cell a ``str``; raise :class:`UnreadableCSV` saying what is wrong.

    Blank lines are skipped; quoted fields may hold commas and newlines. No cell is ever turned into
    NaN, so an empty cell stays ``""`` and the text ``nan`` stays ``"nan"`` for the caller to judge.
    Well-formed files are parsed by Arrow into Arrow-backed string columns (13M-row files in seconds);
    anything Arrow refuses goes through Python's csv module, which names the problem.
    """
    if not path.is_file():
        raise UnreadableCSV(f"no file at {path}" if not path.exists() else f"{path} is not a file")
    if path.suffix.lower() != ".csv":
        raise UnreadableCSV(f"{path.name!r} is not a .csv file")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise UnreadableCSV(f"{path.name} could not be read: {exc.strerror or exc}") from None
    fast = _read_with_arrow(data) if data and not data.isspace() else None
    if fast is not None:
        return fast
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
