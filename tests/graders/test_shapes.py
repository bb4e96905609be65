"""How ``y_pred`` is put in the answers' order (:mod:`graders._shapes`)."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pytest

from graders._shapes import _take


@pytest.mark.parametrize("seed", range(60))
def test_taking_chunk_by_chunk_gives_arrows_take(seed: int) -> None:
    """Any chunking (empty chunks too), any order or subset of rows, any slice size: Arrow's own result."""
    rng = np.random.default_rng(seed)
    sizes = [int(k) for k in rng.integers(0, 20, rng.integers(1, 6))]
    words = ["".join(rng.choice(list("abé "), rng.integers(0, 6))) for _ in range(sum(sizes) or 1)]
    sizes[-1] += len(words) - sum(sizes)
    bounds = np.cumsum([0, *sizes])
    column = pa.chunked_array(
        [pa.array(words[a:b], pa.large_string()) for a, b in zip(bounds, bounds[1:], strict=False)],
        type=pa.large_string(),
    )
    order = rng.permutation(len(words))[: rng.integers(1, len(words) + 1)]
    taken = _take(column, order, rows=int(rng.integers(1, 8)))
    assert taken.type == column.type
    assert taken.to_pylist() == column.take(pa.array(order)).to_pylist()
