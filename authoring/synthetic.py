"""Small generic pieces of synthetic competition data: id columns, numbers as text, words, masks as RLE.

Shared by the competitions' ``fixture.py`` files (their downloads and their grading inputs, see
:mod:`authoring.grading_inputs`); every random choice comes from the ``rng`` passed in.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from graders.rle import rle_encode

__all__ = [
    "blob_masks",
    "blob_runs",
    "ids",
    "int_rows",
    "jitter",
    "join",
    "mutate",
    "names",
    "numbered",
    "rle",
    "rle_strings",
    "subset_noise",
    "text",
    "vocabulary",
    "word_sequences",
]


def text(values: np.ndarray, decimals: int = 6) -> np.ndarray:
    """Numbers rounded to ``decimals`` and written as strings (an object array, as a CSV cell reads)."""
    return pd.Series(np.round(values, decimals)).astype(str).to_numpy(dtype=object)


def ids(prefix: str, n: int) -> np.ndarray:
    """``n`` distinct ids ``<prefix>00000000``, ``<prefix>00000001``, ..."""
    return pd.Series(np.arange(n)).map(lambda i: f"{prefix}{i:08d}").to_numpy(dtype=object)


def numbered(k: int) -> np.ndarray:
    """Return the labels ``"0"`` .. ``str(k - 1)``."""
    return np.arange(k).astype(str).astype(object)


def names(*items: str | int) -> np.ndarray:
    """Return the given labels as strings (an object array)."""
    return np.array([str(x) for x in items], dtype=object)


def int_rows(rows: list[np.ndarray]) -> np.ndarray:
    """Each array of integers written as one space-separated string."""
    return np.array([" ".join(map(str, r)) for r in rows], dtype=object)


def join(tokens: np.ndarray, lengths: np.ndarray, sep: str = " ") -> np.ndarray:
    """Split a flat token array into rows of ``lengths`` tokens and join each row with ``sep``."""
    cuts = np.cumsum(lengths)[:-1]
    return np.array([sep.join(row) for row in np.split(tokens.astype(str), cuts)], dtype=object)


def vocabulary(rng: np.random.Generator, size: int, min_len: int = 2, max_len: int = 10) -> np.ndarray:
    """``size`` random lowercase words of ``min_len`` to ``max_len`` letters."""
    letters = np.array(list("abcdefghijklmnopqrstuvwxyz"))
    lengths = rng.integers(min_len, max_len + 1, size)
    return join(letters[rng.integers(0, 26, lengths.sum())], lengths, sep="")


def word_sequences(rng: np.random.Generator, vocab: np.ndarray, n: int, low: int, high: int) -> np.ndarray:
    """``n`` strings of ``low`` to ``high`` words drawn from ``vocab`` (Zipf-like frequencies)."""
    lengths = rng.integers(low, high + 1, n)
    words = vocab[np.minimum(rng.zipf(1.3, lengths.sum()) - 1, len(vocab) - 1)]
    return join(words, lengths)


def mutate(texts: np.ndarray, rng: np.random.Generator, edits: int, alphabet: str) -> np.ndarray:
    """Replace up to ``edits`` random characters of each string (a noisy transcription)."""
    out = []
    for value, k in zip(texts, rng.integers(0, edits + 1, len(texts)), strict=True):
        chars = list(value)
        for pos in rng.integers(0, max(len(chars), 1), k):
            if chars:
                chars[pos] = alphabet[rng.integers(0, len(alphabet))]
        out.append("".join(chars))
    return np.array(out, dtype=object)


def subset_noise(rows: list[list], vocab: np.ndarray, rng: np.random.Generator, keep: float) -> np.ndarray:
    """Keep each item with probability ``keep`` and add one random item from ``vocab`` per row."""
    return np.array(
        [
            " ".join([*(x for x in row if rng.random() < keep), vocab[rng.integers(0, len(vocab))]])
            for row in rows
        ],
        dtype=object,
    )


def blob_masks(rng: np.random.Generator, n: int, h: int, w: int, p_empty: float) -> list[np.ndarray]:
    """``n`` boolean ``h`` x ``w`` masks, each empty with probability ``p_empty``, else one random disc."""
    yy, xx = np.mgrid[0:h, 0:w]
    out = []
    for _ in range(n):
        if rng.random() < p_empty:
            out.append(np.zeros((h, w), dtype=bool))
            continue
        cy, cx, r = rng.uniform(0, h), rng.uniform(0, w), rng.uniform(3, max(h, w) / 3)
        out.append((yy - cy) ** 2 + (xx - cx) ** 2 < r**2)
    return out


def jitter(masks: list[np.ndarray], rng: np.random.Generator, reach: int = 3) -> list[np.ndarray]:
    """Each mask rolled by up to ``reach`` pixels along both axes (a slightly wrong prediction)."""
    return [np.roll(m, tuple(rng.integers(-reach, reach + 1, 2)), axis=(0, 1)) for m in masks]


def rle(mask: np.ndarray) -> str:
    """Run-length encode a boolean mask as graders read it: column-major, 1-based ``start length`` pairs."""
    return rle_encode(mask)


def rle_strings(masks: list[np.ndarray], empty: str = "") -> list[str]:
    """Each mask run-length encoded (see :func:`rle`), or ``empty`` where the mask is blank."""
    return [rle(m) or empty for m in masks]


def blob_runs(h: int, w: int, blobs: int, shift: int = 0) -> str:
    """Encode ``blobs`` disjoint discs on a grid of an ``h`` x ``w`` image as column-major RLE runs.

    Built from runs directly, without the image, so that whole-slide sizes stay cheap.
    """
    side = int(np.ceil(np.sqrt(blobs)))
    cell_h, cell_w = h // side, w // side
    r = min(cell_h, cell_w) // 3
    starts, lengths = [], []
    for k in range(blobs):
        cy, cx = (k // side) * cell_h + cell_h // 2 + shift, (k % side) * cell_w + cell_w // 2
        dx = np.arange(-r + 1, r)
        half = np.sqrt(r * r - dx * dx).astype(int)
        starts.append((cx + dx) * h + cy - half + 1)  # 1-based
        lengths.append(2 * half + 1)
    starts, lengths = np.concatenate(starts), np.concatenate(lengths)
    order = np.argsort(starts)
    return " ".join(f"{a} {b}" for a, b in zip(starts[order], lengths[order], strict=True))
