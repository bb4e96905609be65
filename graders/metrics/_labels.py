"""Integer codes for labels shared by the label metrics (private)."""

from __future__ import annotations

import numpy as np

from .._cells import as_text


def encode(*columns: np.ndarray) -> tuple[np.ndarray, int]:
    """Code the labels of all columns together (as strings, sorted); return the codes and label count."""
    joined = np.concatenate([as_text(c) for c in columns])
    labels, codes = np.unique(joined, return_inverse=True)
    return codes.ravel(), len(labels)


def check_variant(variant: str) -> None:
    """Raise ValueError unless ``variant`` is ``"v1"`` (MLE-bench v1's behaviour) or ``"fixed"``."""
    if variant not in ("v1", "fixed"):
        raise ValueError(f"variant must be 'v1' or 'fixed', got {variant!r}")
