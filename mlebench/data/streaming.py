"""scikit-learn's ``train_test_split`` over a CSV too big to load: the same rows, in the same order, streamed.

``train_test_split(df, test_size=k, random_state=s)`` draws ``RandomState(s).permutation(n)``; the first
``k`` positions are the test rows and the rest the train rows, *in permutation order*, which is the order
MLE-bench v1 writes them. Reproducing that file without holding the frame takes three passes:

1. count the rows (a byte scan for newlines);
2. draw the same permutation, invert it to each source row's output position, then read the CSV in chunks
   and send each train row to the bucket file that covers its position (test rows stay in memory);
3. read the buckets in turn, sort each by position and append it to the output.

Memory is one chunk plus one bucket plus 4 bytes per row for the positions (the permutation they are
inverted from waits in a scratch file meanwhile: :func:`output_positions`). Values are parsed with the
dtypes given and written by pandas, so the text equals what ``pd.read_csv`` + ``to_csv`` of the whole file
gives.

**Lines pass through verbatim where pandas would write them back unchanged.** Formatting floats is most of
pandas' time, and a row whose every field is already in the form pandas writes comes out byte for byte
as it went in. Such *canonical* lines are recognised in bulk (one regular expression per line, run by
Arrow's RE2 over a whole block) and moved as bytes; any other line is parsed and written by pandas as
before. A line is canonical when it has the header's number of fields and each field is:

- ``float64``: empty (NaN, written empty), or a plain decimal ``-?D.F`` with no superfluous zero (integer
  part ``0`` or starting 1-9; fraction ``0`` or ending 1-9), at least 1e-4 in size unless zero, and at
  most 15 digits in all. Such a decimal is parsed exactly: pandas' parser accumulates up to 17 digits
  into an integer-valued double (exact below 2**53) and divides once by an exact power of ten (10**k,
  k <= 22), one correctly rounded operation; and a decimal of at most 15 significant digits is the
  shortest text that rounds to its double (DBL_DIG is 15: two such decimals never round to one double),
  which is what numpy writes (positional from 1e-4 to 1e16);
- ``int64``: ``0`` or ``-?[1-9]`` followed by at most 17 digits;
- a string dtype: printable ASCII without a comma or a quote (nothing to quote), and no line holding one
  of pandas' missing-value words (``NA``, ``null``, ...) as a whole field anywhere.

A file whose header is not the plain list of the dtypes' columns, or a ``transform_train``, takes the
pandas path throughout. ``tests/test_streaming.py`` checks both paths against the whole-frame split,
including lines of every non-canonical kind.
"""

from __future__ import annotations

import io
import pickle
import re
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pandas as pd

from mlebench.data.prepare import progress

__all__ = ["count_rows", "output_positions", "stream_train_test_split"]

_BLOCK = 1 << 24


def count_rows(path: Path) -> int:
    """Count the data rows of a CSV without quoted line breaks (its lines, less the header)."""
    lines, last = 0, b"\n"
    with path.open("rb") as src:
        while block := src.read(_BLOCK):
            lines += block.count(b"\n")
            last = block[-1:]
    return lines + (last != b"\n") - 1


def _unchanged(frame: pd.DataFrame) -> pd.DataFrame:
    return frame


def stream_train_test_split(
    source: Path,
    train_out: Path,
    *,
    test_size: int,
    random_state: int,
    dtype: dict[str, str],
    transform_train: Callable[[pd.DataFrame], pd.DataFrame] = _unchanged,
    chunk_rows: int = 250_000,
    bucket_rows: int = 500_000,
    verbatim: bool = True,
) -> pd.DataFrame:
    """Write the train side of ``train_test_split`` of ``source`` to ``train_out``; return the test side.

    ``transform_train`` is applied to each piece before it is written (say, to drop a column).
    ``verbatim=False`` parses and writes every line with pandas (the reference the fast path is tested on).
    """
    n = count_rows(source)
    if not 0 < test_size < n:
        raise ValueError(f"{source}: cannot hold out {test_size} of {n} rows")
    position = output_positions(n, test_size, random_state, train_out.parent)
    n_buckets = -(-(n - test_size) // bucket_rows)
    header = _plain_header(source, dtype) if verbatim and transform_train is _unchanged else None
    if header is not None:
        return _split_lines(source, train_out, header, dtype, position, n_buckets, bucket_rows)
    tests = []
    with tempfile.TemporaryDirectory(prefix="mlebench-split-", dir=train_out.parent) as tmp:
        buckets = [Path(tmp) / f"{b:05d}.pkl" for b in range(n_buckets)]
        pieces: list[list[pd.DataFrame]] = [[] for _ in range(n_buckets)]
        pending = 0
        start = 0
        chunks = pd.read_csv(source, dtype=dtype, chunksize=chunk_rows)
        for chunk in progress(chunks, total=-(-n // chunk_rows), desc=f"split {source.name}", unit="chunk"):
            pos = position[start : start + len(chunk)]
            start += len(chunk)
            chunk = chunk.assign(_position=pos)
            tests.append(chunk[pos < 0])
            train = chunk[pos >= 0]
            which = train["_position"].to_numpy() // bucket_rows
            for b, part in train.groupby(which, sort=True):
                pieces[int(b)].append(part)
            pending += len(train)
            if pending >= bucket_rows:  # spill: memory stays at about one chunk and one bucket
                _spill(pieces, buckets)
                pending = 0
        _spill(pieces, buckets)
        if start != n:
            raise ValueError(f"{source}: counted {n} rows but read {start} (quoted line breaks?)")
        header = True
        train_out.unlink(missing_ok=True)
        for bucket in buckets:
            frame = _read_bucket(bucket).sort_values("_position", kind="stable").drop(columns="_position")
            transform_train(frame).to_csv(train_out, mode="a", header=header, index=False)
            header = False
    test = pd.concat(tests).sort_values("_position", kind="stable").drop(columns="_position")
    return test.set_axis(range(len(test)))


def output_positions(n: int, test_size: int, random_state: int, scratch: Path) -> np.ndarray:
    """Return each source row's place in ``train_test_split``'s output: ``-test_size..-1`` test, then train.

    The permutation is drawn as ``RandomState(random_state).permutation(n)`` draws it (a shuffle of
    ``arange(n)``; the draws do not depend on the dtype, so 4-byte indices give the same order), parked in
    a file under ``scratch`` and read back in blocks while it is inverted, so memory peaks at one array of
    ``n`` 4-byte positions, not the permutation and its inverse together.
    """
    dtype = np.int32 if n < 2**31 else np.int64
    permutation = np.arange(n, dtype=dtype)
    np.random.RandomState(random_state).shuffle(permutation)
    block = 1 << 22
    with tempfile.TemporaryFile(dir=scratch, prefix="mlebench-permutation-") as parked:
        permutation.tofile(parked)
        del permutation
        position = np.empty(n, dtype=dtype)
        parked.seek(0)
        for start in range(0, n, block):
            rows = np.fromfile(parked, dtype=dtype, count=min(block, n - start))
            position[rows] = np.arange(start - test_size, start - test_size + len(rows), dtype=dtype)
    return position


def _spill(pieces: list[list[pd.DataFrame]], buckets: list[Path]) -> None:
    for b, parts in enumerate(pieces):
        if parts:
            with buckets[b].open("ab") as out:
                pickle.dump(pd.concat(parts), out, protocol=pickle.HIGHEST_PROTOCOL)
            parts.clear()


def _read_bucket(path: Path) -> pd.DataFrame:
    frames = []
    with path.open("rb") as src:
        while True:
            try:
                frames.append(pickle.load(src))  # noqa: S301 - our own temporary file
            except EOFError:
                break
    return pd.concat(frames)


# --------------------------------------------------------------------------------------------------------
# The verbatim path (see the module's docstring)

_LINE_BLOCK = 32 << 20
_STRING_FIELD = r"[\t\x20\x21\x23-\x2b\x2d-\x7e]*"  # printable ASCII but '"' and ','
_INT_FIELD = r"(?:0|-?[1-9][0-9]{0,17})"


def _float_field() -> str:
    small = r"0\.(?:0|0{0,3}[1-9](?:[0-9]{0,9}[1-9])?)"  # 0.0, or >= 1e-4 with <= 15 digits in all
    large = [rf"[1-9][0-9]{{{k}}}\.(?:0|[0-9]{{0,{13 - k}}}[1-9])" for k in range(14)]  # <= 15 digits
    return rf"(?:-?(?:{'|'.join([small, *large])}))?"


_FIELDS = {"float64": _float_field(), "int64": _INT_FIELD}
_STRINGS = {"string[pyarrow]", "string", "str", "object"}


def _field_pattern(kind: object) -> str | None:
    name = str(kind)
    if name in _FIELDS:
        return _FIELDS[name]
    return _STRING_FIELD if (name in _STRINGS or kind is str) else None


def _plain_header(source: Path, dtype: dict[str, str]) -> list[str] | None:
    """Return the header's column names if the verbatim path can take ``source``, else None."""
    with source.open("rb") as src:
        line = src.readline()
    if not line.endswith(b"\n") or not re.fullmatch(rb"[A-Za-z0-9_ ]+(?:,[A-Za-z0-9_ ]+)*\n", line):
        return None
    names = line[:-1].decode().split(",")
    if sorted(names) != sorted(dtype) or any(_field_pattern(dtype[c]) is None for c in names):
        return None
    if len(names) < 2:  # one column: an empty line would look canonical, but pandas skips blank lines
        return None
    return names


def _blocks(source: Path, skip: int) -> Iterator[bytes]:
    """``source`` from byte ``skip`` on, in blocks of whole lines (each ending in a newline)."""
    with source.open("rb") as src:
        src.seek(skip)
        rest = b""
        while block := src.read(_LINE_BLOCK):
            block = rest + block
            cut = block.rfind(b"\n") + 1
            block, rest = block[:cut], block[cut:]
            if block:
                yield block
        if rest:
            yield rest + b"\n"


def _split_lines(
    source: Path,
    train_out: Path,
    names: list[str],
    dtype: dict[str, str],
    position: np.ndarray,
    n_buckets: int,
    bucket_rows: int,
) -> pd.DataFrame:
    import pyarrow as pa
    import pyarrow.compute as pc
    from pandas._libs.parsers import STR_NA_VALUES

    header = (",".join(names) + "\n").encode()
    canonical = "^" + ",".join(_field_pattern(dtype[c]) for c in names) + "\n$"
    words = sorted(re.escape(w) for w in STR_NA_VALUES if w)
    missing = "(?:^|,)(?:" + "|".join(words) + ")(?:,|\n)"
    n = len(position)
    test_lines: list[bytes] = []
    test_positions: list[np.ndarray] = []
    start = 0
    with tempfile.TemporaryDirectory(prefix="mlebench-split-", dir=train_out.parent) as tmp:
        buckets = [Path(tmp) / f"{b:05d}.pkl" for b in range(n_buckets)]
        bar = progress(None, total=source.stat().st_size, desc=f"split {source.name}", unit="B")
        for block in _blocks(source, len(header)):
            bar.update(len(block))
            ends = np.flatnonzero(np.frombuffer(block, dtype=np.uint8) == 10) + 1
            rows = len(ends)
            if start + rows > n:
                raise ValueError(f"{source}: counted {n} rows but found more")
            offsets = np.concatenate([[0], ends]).astype(np.int32)
            lines = pa.Array.from_buffers(
                pa.binary(), rows, [None, pa.py_buffer(offsets), pa.py_buffer(block)]
            )
            ok = pc.and_(
                pc.match_substring_regex(lines, canonical),
                pc.invert(pc.match_substring_regex(lines, missing)),
            ).to_numpy(zero_copy_only=False)
            pos = position[start : start + rows]
            start += rows
            held = np.flatnonzero(pos < 0)
            test_lines += [block[offsets[i] : offsets[i + 1]] for i in held]
            test_positions.append(pos[held])
            if not ok.all():
                lines = _rewrite(source, header, dtype, lines, ok)
            train = np.flatnonzero(pos >= 0)
            which = pos[train] // bucket_rows
            order = np.argsort(which, kind="stable")
            train, which = train[order], which[order]
            cuts = np.flatnonzero(np.diff(which)) + 1
            for part in np.split(np.arange(len(train)), cuts):
                if len(part):
                    rows_here = train[part]
                    with buckets[int(which[part[0]])].open("ab") as out:
                        pickle.dump((pos[rows_here], lines.take(pa.array(rows_here))), out, protocol=5)
        bar.close()
        if start != n:
            raise ValueError(f"{source}: counted {n} rows but read {start} (quoted line breaks?)")
        train_out.unlink(missing_ok=True)
        with train_out.open("wb") as out:
            out.write(header)
            for bucket in progress(buckets, desc=f"writing {train_out.name}", unit="bucket"):
                out.write(_sorted_bucket(bucket))
    test = pd.read_csv(io.BytesIO(header + b"".join(test_lines)), dtype=dtype)
    order = np.argsort(np.concatenate(test_positions), kind="stable")
    return test.iloc[order].set_axis(range(len(test)))


def _rewrite(source: Path, header: bytes, dtype: dict[str, str], lines, ok: np.ndarray):  # noqa: ANN001, ANN202
    """``lines`` with each line not marked ``ok`` parsed and written again by pandas."""
    import pyarrow as pa

    bad = np.flatnonzero(~ok)
    texts = lines.to_pylist()
    frame = pd.read_csv(io.BytesIO(header + b"".join(texts[i] for i in bad)), dtype=dtype)
    if len(frame) != len(bad):
        raise ValueError(
            f"{source}: {len(bad)} line(s) read as {len(frame)} row(s) (quoted line breaks or blank lines?)"
        )
    written = frame.to_csv(index=False, header=False, lineterminator="\n").encode().split(b"\n")[:-1]
    for i, line in zip(bad, written, strict=True):
        texts[i] = line + b"\n"
    return pa.array(texts, pa.binary())


def _sorted_bucket(path: Path) -> bytes:
    import pyarrow as pa

    positions, pieces = [], []
    if path.exists():
        with path.open("rb") as src:
            while True:
                try:
                    pos, lines = pickle.load(src)  # noqa: S301 - our own temporary file
                except EOFError:
                    break
                positions.append(pos)
                pieces.append(lines)
    if not pieces:
        return b""
    lines = pa.concat_arrays(pieces).take(pa.array(np.argsort(np.concatenate(positions), kind="stable")))
    offsets = np.frombuffer(lines.buffers()[1], dtype=np.int32)[lines.offset : lines.offset + len(lines) + 1]
    return lines.buffers()[2].to_pybytes()[offsets[0] : offsets[-1]]
