"""scikit-learn's ``train_test_split`` over a CSV too big to load: the same rows, in the same order, streamed.

``train_test_split(df, test_size=k, random_state=s)`` draws ``RandomState(s).permutation(n)``; the first
``k`` positions are the test rows and the rest the train rows, *in permutation order*, which is the order
MLE-bench v1 writes them. Reproducing that file without holding the frame takes three passes:

1. count the rows (a byte scan for newlines);
2. draw the same permutation, invert it to each source row's output position, then read the CSV in chunks
   and send each train row to the bucket file that covers its position (test rows stay in memory);
3. read the buckets in turn, sort each by position and append it to the output.

Memory is one chunk plus one bucket plus 4 bytes per row for the positions (and, while it is drawn, the
8-byte-per-row permutation itself). Values are parsed with the dtypes given and written by pandas, so the
text equals what ``pd.read_csv`` + ``to_csv`` of the whole file gives.
"""

from __future__ import annotations

import pickle
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pandas as pd

from mlebench.data.prepare import progress

__all__ = ["count_rows", "stream_train_test_split"]

_BLOCK = 1 << 24


def count_rows(path: Path) -> int:
    """Count the data rows of a CSV without quoted line breaks (its lines, less the header)."""
    lines, last = 0, b"\n"
    with path.open("rb") as src:
        while block := src.read(_BLOCK):
            lines += block.count(b"\n")
            last = block[-1:]
    return lines + (last != b"\n") - 1


def stream_train_test_split(
    source: Path,
    train_out: Path,
    *,
    test_size: int,
    random_state: int,
    dtype: dict[str, str],
    transform_train: Callable[[pd.DataFrame], pd.DataFrame] = lambda frame: frame,
    chunk_rows: int = 250_000,
    bucket_rows: int = 500_000,
) -> pd.DataFrame:
    """Write the train side of ``train_test_split`` of ``source`` to ``train_out``; return the test side.

    ``transform_train`` is applied to each piece before it is written (say, to drop a column).
    """
    n = count_rows(source)
    if not 0 < test_size < n:
        raise ValueError(f"{source}: cannot hold out {test_size} of {n} rows")
    permutation = np.random.RandomState(random_state).permutation(n)
    position = np.empty(n, dtype=np.int32 if n < 2**31 else np.int64)
    position[permutation] = np.arange(n, dtype=position.dtype) - test_size
    del permutation
    n_buckets = -(-(n - test_size) // bucket_rows)
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
