"""A small stand-in for Kaggle's denoising-dirty-documents download: train.zip and train_cleaned.zip."""

import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from authoring.grading_inputs import GradingInputs, regression, units
from mlebench_spec.declarations import Competition, RealSize


def _png(pixels: np.ndarray) -> bytes:
    out = io.BytesIO()
    Image.fromarray(pixels, mode="L").save(out, format="PNG")
    return out.getvalue()


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write 20 small grayscale page pairs: noisy train/N.png and clean train_cleaned/N.png."""
    stems = sorted(rng.choice(np.arange(1, 200), size=20, replace=False).tolist())
    with (
        zipfile.ZipFile(dest / "train.zip", "w") as noisy,
        zipfile.ZipFile(dest / "train_cleaned.zip", "w") as clean,
    ):
        for stem in stems:
            page = rng.choice(np.array([30, 255], dtype=np.uint8), size=(6, 8), p=[0.4, 0.6])
            dirt = rng.integers(-60, 60, size=page.shape)
            noisy.writestr(f"train/{stem}.png", _png(np.clip(page + dirt, 0, 255).astype(np.uint8)))
            clean.writestr(f"train_cleaned/{stem}.png", _png(page))


REAL_SHAPE = (258, 540)  # rows and columns of a test image, est.


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """One row per pixel ``img_row_col``; intensities in [0, 1], mostly white, predictions noisy."""
    rows, cols = REAL_SHAPE
    images = units(size.test_rows, rows * cols)
    img, row, col = np.meshgrid(
        np.arange(images), np.arange(1, rows + 1), np.arange(1, cols + 1), indexing="ij"
    )
    row_ids = (
        pd.Series(img.ravel())
        .astype(str)
        .str.cat([pd.Series(row.ravel()).astype(str), pd.Series(col.ravel()).astype(str)], sep="_")
    ).to_numpy(dtype=object)
    truth = np.where(rng.random(len(row_ids)) < 0.9, 1.0, rng.random(len(row_ids)))
    return regression(comp, row_ids, truth, 0.05, rng)
