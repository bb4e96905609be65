"""A small stand-in for Kaggle's whale-categorization-playground download: train.csv, train/*.jpg."""

import io
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from authoring.grading_inputs import GradingInputs, ranking
from authoring.synthetic import numbered
from mlebench_spec.declarations import Competition, RealSize


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, every random choice drawn from ``rng``."""
    whales = [f"w_{v:07x}" for v in rng.integers(16**6, 16**7, size=70)]
    counts = rng.choice([1, 1, 2, 3, 4], size=len(whales))
    labels = [w for w, c in zip(whales, counts, strict=True) for _ in range(c)] + ["new_whale"] * 12
    labels = list(rng.permutation(labels))
    images = [f"{v:08x}.jpg" for v in rng.choice(16**8, size=len(labels), replace=False)]
    pd.DataFrame({"Image": images, "Id": labels}).to_csv(dest / "train.csv", index=False)
    (dest / "train").mkdir()
    for name in images:
        pixels = rng.integers(0, 255, size=(8, 12, 3), dtype=np.uint8)
        buffer = io.BytesIO()
        Image.fromarray(pixels).save(buffer, format="JPEG", quality=70)
        (dest / "train" / name).write_bytes(buffer.getvalue())


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: one whale of ``size.classes`` per image, five ranked guesses."""
    return ranking(comp, size.test_rows, numbered(size.classes), (1, 1), 5, rng)
