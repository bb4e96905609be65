"""Training-fraction subsampling: which training rows a reference solution may learn from."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike

__all__ = ["subsample"]


def subsample(n_rows: int, fraction: float, seed: int, labels: ArrayLike | None = None) -> np.ndarray:
    """Sorted indices of about ``fraction * n_rows`` training rows (at least 2), drawn with ``seed``.

    With ``labels`` the draw is stratified: each class contributes ``round(fraction * its rows)`` rows but
    at least one, so a small fraction still sees every class. ``fraction >= 1`` keeps all.

    >>> subsample(10, 1.0, 0).tolist()
    [0, 1, 2, 3, 4, 5, 6, 7, 8, 9]
    >>> len(subsample(100, 0.1, 0)), len(subsample(100, 0.1, 0, labels=[0] * 95 + [1] * 5))
    (10, 11)
    >>> sorted(set(np.array([0] * 95 + [1] * 5)[subsample(100, 0.05, 1, labels=[0] * 95 + [1] * 5)]))
    [np.int64(0), np.int64(1)]
    """
    if fraction >= 1:
        return np.arange(n_rows)
    size = max(2, int(round(fraction * n_rows)))
    rng = np.random.default_rng(seed)
    if labels is None:
        return np.sort(rng.choice(n_rows, size=size, replace=False))
    labels = np.asarray(labels)
    classes, codes = np.unique(labels, return_inverse=True)
    picked = []
    for code in range(len(classes)):
        members = np.flatnonzero(codes == code)
        take = max(1, int(round(fraction * len(members))))
        picked.append(rng.choice(members, size=min(take, len(members)), replace=False))
    return np.sort(np.concatenate(picked))
