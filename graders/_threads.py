"""Spread GIL-releasing work (Arrow compute kernels, numpy) over a few threads (private)."""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import pyarrow as pa

THREADS = min(4, len(os.sched_getaffinity(0))) if hasattr(os, "sched_getaffinity") else 1
"""Threads grading may spread Arrow, numpy or k-d tree work over (they release the GIL); at most 4."""


SMALL = 1 << 16
"""Rows under which :func:`chunkwise` stays on the calling thread (fresh threads and the allocator arenas
they open cost a grading process some 2 MB, more than threads save on a few thousand rows), and under
which validation keys ids in Python rather than with Arrow's kernels (``graders.submission._keys``)."""


def each(fn: Callable, items: Sequence, *, threaded: bool = True) -> list:
    """``fn`` of every item, in order: on :data:`THREADS` threads when there are two items or more.

    ``threaded=False`` keeps them on the calling thread (for work too small to pay for threads).
    """
    if THREADS == 1 or len(items) < 2 or not threaded:
        return list(map(fn, items))
    with ThreadPoolExecutor(THREADS) as pool:
        return list(pool.map(fn, items))


def chunks_of(arrays: Sequence[pa.Array | pa.ChunkedArray]) -> list[pa.Array]:
    """Return the arrays' chunks, in order (an array that is not chunked is its own one chunk)."""
    return [c for a in arrays for c in (a.chunks if isinstance(a, pa.ChunkedArray) else [a])]


def chunkwise(
    fn: Callable[[pa.Array], pa.Array], arrays: Sequence[pa.Array | pa.ChunkedArray], dtype: type
) -> np.ndarray:
    """Apply an Arrow function to every chunk of ``arrays`` and return the results, in order, as one array.

    Arrow's compute kernels run one array on one thread; a column read from a large CSV arrives in chunks
    of a 4 MiB block each, so casting or matching them side by side uses every core (:data:`THREADS`).
    Each chunk's result is written straight into the one output: the only full-size allocation, where
    Arrow's results plus joining them would be three (at 26M ids each is 0.2 GB of fresh pages to fault in).
    Nulls in a result become NaN, so a function that can return them needs a float ``dtype``.
    """
    chunks = chunks_of(arrays)
    starts = np.cumsum([0, *map(len, chunks)])
    out = np.empty(int(starts[-1]), dtype=dtype)

    def work(i: int) -> None:
        out[starts[i] : starts[i + 1]] = fn(chunks[i]).to_numpy(zero_copy_only=False)

    each(work, range(len(chunks)), threaded=len(out) >= SMALL)
    return out


def chunked_sum(fn: Callable[[slice], float], n: int, rows: int = 1 << 20) -> float:
    """Return ``sum(fn(s) for s in slices of range(n))``, ``rows`` at a time, over :data:`THREADS` threads.

    For elementwise numpy work on millions of rows: two cores halve the time, and a slice's temporaries
    are a few MB where the whole arrays' would be hundreds. The slices' sums are added in order.
    """
    return float(sum(each(fn, [slice(start, min(start + rows, n)) for start in range(0, n, rows)])))
