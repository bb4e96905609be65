"""Chunk-by-chunk Arrow work on threads: results in order, one output array, errors raised."""

from __future__ import annotations

import threading

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

from graders import _threads
from graders._threads import chunkwise
from graders.submission import _is_identity


@pytest.mark.parametrize("threads", [1, 2, 4])
def test_chunkwise_keeps_the_order_of_arrays_and_chunks(monkeypatch, threads):
    monkeypatch.setattr(_threads, "THREADS", threads)
    monkeypatch.setattr(_threads, "SMALL", 0)  # threads even for these few rows
    first = pa.chunked_array([["3", "1"], [], ["4"], ["1", "5", "9"]], type=pa.large_string())
    second = pa.array(["2", "6"], type=pa.large_string())
    out = chunkwise(lambda c: pc.cast(c, pa.int64()), [first, second], np.int64)
    assert out.dtype == np.int64 and out.tolist() == [3, 1, 4, 1, 5, 9, 2, 6]
    assert out.flags.writeable


def test_chunkwise_of_nothing_is_an_empty_array():
    empty = pa.chunked_array([], type=pa.large_string())
    assert chunkwise(lambda c: pc.cast(c, pa.float64()), [empty], float).shape == (0,)


def test_chunkwise_nulls_become_nan_in_a_float_output():
    texts = pa.chunked_array([["1.5", None], ["2"]], type=pa.large_string())
    out = chunkwise(lambda c: pc.cast(c, pa.float64()), [texts], float)
    assert out[0] == 1.5 and np.isnan(out[1]) and out[2] == 2.0


def test_chunkwise_raises_what_a_chunk_raised(monkeypatch):
    monkeypatch.setattr(_threads, "THREADS", 2)
    monkeypatch.setattr(_threads, "SMALL", 0)
    texts = pa.chunked_array([["1"], ["x"], ["2"]], type=pa.large_string())
    with pytest.raises(pa.ArrowInvalid):
        chunkwise(lambda c: pc.cast(c, pa.float64()), [texts], float)


@pytest.mark.parametrize(("rows", "on_threads"), [(10, False), (_threads.SMALL, True)])
def test_only_work_large_enough_goes_to_threads(monkeypatch, rows, on_threads):
    monkeypatch.setattr(_threads, "THREADS", 2)
    seen = set()

    def cast(chunk: pa.Array) -> pa.Array:
        seen.add(threading.get_ident())
        return pc.cast(chunk, pa.int64())

    half = pa.array(["7"] * (rows // 2), type=pa.large_string())
    assert chunkwise(cast, [half, half], np.int64).sum() == 7 * 2 * (rows // 2)
    assert (seen != {threading.get_ident()}) is on_threads


@pytest.mark.parametrize(
    ("order", "expected"),
    [
        ([], True),
        ([0], True),
        ([0, 1, 2, 3], True),
        ([1, 0, 2], False),
        ([0, 2, 1, 3], False),
        ([0, 0], False),
    ],
)
def test_is_identity(order, expected):
    assert _is_identity(np.array(order, dtype=np.intp)) is expected
