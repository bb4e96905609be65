"""A strict CSV reader: every cell a string, and a clear reason when a file cannot be read."""

from __future__ import annotations

import csv
import ctypes
import io
import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.csv as pacsv

from ._text import SHOWN, count, quote, some
from ._threads import each


class UnreadableCSV(ValueError):
    """A file that is not a readable CSV (an invalid submission, or a bug when it is an answers file)."""


_STRING = pd.StringDtype("pyarrow", na_value=np.nan)
if "ARROW_DEFAULT_MEMORY_POOL" not in os.environ:
    # Arrow's own pool (mimalloc) keeps arenas a grader never reuses: reading a 0.5 MB file raised the peak by
    # 15 MB, and icecube's two 13M-row files by 200 MB more than the C library's malloc, at the same speed
    # (benchmarks/grading.py). A grading process takes the system pool unless its caller chose another.
    pa.set_memory_pool(pa.system_memory_pool())
csv.field_size_limit(2**31 - 1)  # no cap on a field's length (an RLE mask of a whole fragment is huge)
_PEEK = 1 << 20
"""Bytes read first: a file whose first MiB holds no quote is parsed straight from disk."""
_THREADED = 16 << 20
"""Files this large or larger are parsed on several threads."""


_MALLOPT = getattr(ctypes.CDLL(None), "mallopt", None) if sys.platform.startswith("linux") else None
_M_MMAP_THRESHOLD = -3  # glibc's mallopt parameter


@contextmanager
def _parse_buffers_returned(path: Path) -> Iterator[None]:
    """While a small file is parsed, keep the C library's mmap threshold at its starting 128 KiB.

    glibc raises the threshold each time it frees a mapped block, so once Arrow frees its first 1 MiB parse
    block every smaller one comes from a heap it seldom trims, and a small file's grading peaks higher for it.
    After the parse the threshold is left at 32 MiB, the ceiling glibc's own rule rises to (128 KiB there too
    slows a metric that maps large masks afresh) (measured: docs/performance.md, "Figures behind design
    choices"). Large files (parsed on threads) are left to glibc's rule, and ``MALLOC_MMAP_THRESHOLD_`` to the
    caller.
    """
    try:
        small = path.stat().st_size < _THREADED
    except OSError:
        small = False  # the reader names the problem
    small = small and _MALLOPT is not None and "MALLOC_MMAP_THRESHOLD_" not in os.environ
    if small:
        _MALLOPT(_M_MMAP_THRESHOLD, 128 << 10)
    try:
        yield
    finally:
        if small:
            _MALLOPT(_M_MMAP_THRESHOLD, 32 << 20)


def _header(data: bytes) -> list[str] | None:
    """Return the header's names from a file's first bytes (None: unreadable, or a name repeats)."""
    end = data.find(b"\n")
    try:
        first_line = data[: end if end >= 0 else len(data)].rstrip(b"\r").decode("utf-8-sig")
        header = next(csv.reader([first_line], strict=True), [])
    except (UnicodeDecodeError, csv.Error):
        return None
    return header if header and len(set(header)) == len(header) else None


def _parse(
    source: Callable[[], pa.NativeFile], header: list[str], size: int, *, quoted: bool
) -> pa.Table | None:
    """Parse with Arrow, every cell a string and none turned into NaN; None when Arrow objects to anything.

    ``quoted=False`` reads ``"`` as a plain character (for a file holding none, the same table).
    """
    convert = pacsv.ConvertOptions(
        column_types={name: pa.large_string() for name in header},
        null_values=[],
        strings_can_be_null=False,
        quoted_strings_can_be_null=False,
        check_utf8=True,
    )
    parse = pacsv.ParseOptions(
        quote_char='"' if quoted else False, newlines_in_values=quoted, ignore_empty_lines=True
    )
    # Arrow parses in blocks that must hold whole rows; a run-length mask can make one row megabytes long
    # (vesuvius), so a file Arrow cannot cut into such blocks is parsed as one block.
    for block in (_block_size(size), size + 1):
        try:
            # Threads pay where there are many blocks; on a few they only keep more buffers alive at once
            # (smartphone's 4 MB files: 2 MB higher peak each, at the same speed).
            options = pacsv.ReadOptions(use_threads=size >= _THREADED, block_size=block)
            table = pacsv.read_csv(
                source(), read_options=options, parse_options=parse, convert_options=convert
            )
        except (pa.ArrowInvalid, pa.ArrowTypeError, UnicodeDecodeError):
            continue
        return table if table.column_names == header else None
    return None


def _block_size(size: int) -> int:
    """Arrow's block for a file of ``size`` bytes: about a 64th of it, from 1 MiB to 4 MiB.

    Small blocks keep few parse buffers alive at once, and too many blocks make columns of many chunks slower
    to check (measured: docs/performance.md, "Figures behind design choices").
    """
    return min(4 << 20, max(1 << 20, size >> 6))


def _frame(table: pa.Table, header: list[str]) -> pd.DataFrame:
    """Return the table as Arrow-backed string columns, and free what the parser kept."""
    frame = pd.DataFrame({name: pd.Series(table[name], dtype=_STRING, copy=False) for name in header})
    release_arrow_memory()  # the parser's block buffers
    return frame


def _read_unquoted(path: Path, header: list[str], size: int) -> pd.DataFrame | None:
    """Parse a file without quotes straight from disk, so reading overlaps parsing and no copy is held.

    Faster and smaller than reading the file whole first (measured: docs/performance.md, "Figures behind
    design choices"). None when Arrow objects, or a quote turns up after all (the whole file then goes to the
    careful reader).
    """
    table = _parse(lambda: pa.OSFile(str(path)), header, size, quoted=False)
    if table is None:
        return None
    chunks = [c for column in table.columns for c in column.chunks]
    if any(each(_holds_quote, chunks, threaded=size >= _THREADED)):
        return None
    return _frame(table, header)


def _holds_quote(chunk: pa.Array, step: int = 1 << 18) -> bool:
    """Tell whether a string array's data buffer holds ``"`` (perhaps beyond its own cells: then too).

    Compared a quarter MiB at a time: a mask of the whole buffer is as large as the text and takes its fresh
    pages' faults (measured: docs/performance.md, "Figures behind design choices").
    """
    data = chunk.buffers()[2]
    text = np.frombuffer(data, dtype=np.uint8) if data is not None else np.empty(0, np.uint8)
    return any((text[i : i + step] == ord('"')).any() for i in range(0, len(text), step))


def _read_with_arrow(data: bytes) -> pd.DataFrame | None:
    """Parse a well-formed file's bytes with Arrow, every cell a string and none turned into NaN.

    Returns None when Arrow objects to anything, the header repeats a name, or quotes are unbalanced
    (Arrow would read an unterminated quote to the end of the file): the caller's slower reader then
    finds the problem and names it.
    """
    if b'"' in data and data.count(b'"') % 2:
        return None
    header = _header(data)
    if header is None:
        return None
    # a BufferReader hands Arrow slices of ``data`` (BytesIO copied each block: 0.2 s at icecube)
    table = _parse(lambda: pa.BufferReader(data), header, len(data), quoted=True)
    return None if table is None else _frame(table, header)


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
    with _parse_buffers_returned(path):
        return _read(path)


def _read(path: Path) -> pd.DataFrame:
    """Read a CSV file for :func:`read_csv_strings`."""
    try:
        with path.open("rb") as file:
            head, size = file.read(_PEEK), os.fstat(file.fileno()).st_size
        header = _header(head) if head.strip() and b'"' not in head else None
        del head  # not held while the file is parsed
        fast = _read_unquoted(path, header, size) if header is not None else None
        if fast is not None:
            return fast
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
