"""Reading images from the public ``train/`` and ``test/`` folders.

Images are converted to float arrays scaled to [0, 1] by their bit depth (8- or 16-bit); colour
images keep their channels. For classification/regression every image is resized to a common
shape no larger than ``max_side`` and flattened into pixel features.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import numpy as np
from PIL import Image


def read_image(path: Path) -> np.ndarray:
    """Return an image as float32 in [0, 1]: (h, w) for grey, (h, w, c) for colour.

    16-bit images are divided by 65535, everything else by 255.
    """
    with Image.open(path) as img:
        if img.mode in ("I;16", "I;16B", "I;16L", "I"):
            arr = np.asarray(img, dtype=np.float32)
            return arr / (65535.0 if arr.max() > 255 or img.mode.startswith("I;16") else 255.0)
        if img.mode in ("P", "LA", "PA", "CMYK", "YCbCr", "1"):
            img = img.convert("RGBA" if "A" in img.mode else "RGB")
        if img.mode == "RGBA":
            img = img.convert("RGB")
        if img.mode == "F":
            arr = np.asarray(img, dtype=np.float32)
            return (arr - arr.min()) / max(float(arr.max() - arr.min()), 1e-6)
        return np.asarray(img, dtype=np.float32) / 255.0


def common_shape(paths: list[Path], max_side: int) -> tuple[int, int]:
    """Return the most frequent (h, w) among the first images, shrunk to at most ``max_side``."""
    sizes = Counter()
    for path in paths[:200]:
        with Image.open(path) as img:
            sizes[(img.height, img.width)] += 1
    h, w = sizes.most_common(1)[0][0]
    scale = min(1.0, max_side / max(h, w))
    return max(1, round(h * scale)), max(1, round(w * scale))


def _resize(arr: np.ndarray, shape: tuple[int, int]) -> np.ndarray:
    if arr.shape[:2] == shape:
        return arr
    channels = [arr] if arr.ndim == 2 else [arr[..., c] for c in range(arr.shape[2])]
    out = [
        np.asarray(Image.fromarray(ch.astype(np.float32)).resize((shape[1], shape[0]), Image.BILINEAR))
        for ch in channels
    ]
    return out[0] if arr.ndim == 2 else np.stack(out, axis=-1)


def pixel_matrix(paths: list[Path], shape: tuple[int, int]) -> np.ndarray:
    """Return the flattened pixels of every image, resized to ``shape``.

    Images whose channel count differs from the first image's are converted to match it.
    """
    rows, channels = [], None
    for path in paths:
        arr = read_image(path)
        if channels is None:
            channels = 1 if arr.ndim == 2 else arr.shape[2]
        if arr.ndim == 3 and arr.shape[2] != channels:
            arr = arr.mean(axis=2)
        if arr.ndim == 2 and channels != 1:
            arr = np.repeat(arr[..., None], channels, axis=2)
        rows.append(_resize(arr, shape).ravel())
    return np.vstack(rows).astype(np.float32)
