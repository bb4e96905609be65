"""Run-length encoding of binary masks in the MLE-bench/Kaggle convention.

Pixels are numbered from 1 in column-major order (top to bottom, then left to right); a mask is
written as ``"start length start length …"``; an empty mask is the empty string.
"""

from __future__ import annotations

import numpy as np


def rle_encode(mask: np.ndarray) -> str:
    """Encode a 2-D boolean mask.

    Examples:
        >>> rle_encode(np.array([[1, 0], [1, 1]], dtype=bool))
        '1 2 4 1'
        >>> rle_encode(np.zeros((2, 2), dtype=bool))
        ''

    """
    flat = np.asarray(mask, dtype=bool).ravel(order="F").astype(np.int8)
    padded = np.concatenate([[0], flat, [0]])
    edges = np.flatnonzero(padded[1:] != padded[:-1]) + 1
    starts, ends = edges[::2], edges[1::2]
    return " ".join(f"{s} {e - s}" for s, e in zip(starts, ends, strict=False))


def rle_decode(rle: object, shape: tuple[int, int]) -> np.ndarray:
    """Decode ``rle`` (``None``/NaN/empty = empty mask) into a boolean array of ``shape``.

    Examples:
        >>> rle_decode("1 2 4 1", (2, 2)).astype(int).tolist()
        [[1, 0], [1, 1]]

    """
    flat = np.zeros(shape[0] * shape[1], dtype=bool)
    if isinstance(rle, str) and rle.strip():
        numbers = np.asarray(rle.split(), dtype=np.int64)
        for start, length in zip(numbers[::2], numbers[1::2], strict=False):
            flat[start - 1 : start - 1 + length] = True
    return flat.reshape(shape, order="F")
