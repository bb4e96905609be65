"""A small stand-in for Kaggle's vesuvius-challenge-ink-detection download: fragments train/1, 2 and 3.

Each fragment has surface_volume/NN.tif (16-bit slices), mask.png, ir.png, inklabels.png and
inklabels_rle.csv (Id, Predicted: the ink mask run-length encoded row-major, 1-based).
"""

from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from authoring.grading_inputs import GradingInputs
from authoring.synthetic import rle
from mlebench.data.prepare import write_png
from mlebench_spec.declarations import Competition, RealSize

_SLICES = 3


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, every random choice drawn from ``rng``."""
    for fragment in (1, 2, 3):
        height, width = (int(v) for v in rng.integers(16, 28, size=2))
        folder = dest / "train" / str(fragment)
        (folder / "surface_volume").mkdir(parents=True)
        for index in range(_SLICES):
            volume = rng.integers(0, 65535, size=(height, width), dtype=np.uint16)
            Image.fromarray(volume).save(folder / "surface_volume" / f"{index:02d}.tif", format="TIFF")
        ink = np.zeros((height, width), dtype=np.uint8)
        top, left = rng.integers(0, 8, size=2)
        ink[top : top + 6, left : left + 9] = 1
        write_png(np.full((height, width), 255, dtype=np.uint8), folder / "mask.png")
        write_png(rng.integers(0, 255, size=(height, width), dtype=np.uint8), folder / "ir.png")
        write_png(ink * 255, folder / "inklabels.png")
        rle = pd.DataFrame({"Id": [fragment], "Predicted": [_rle(ink)]})
        rle.to_csv(folder / "inklabels_rle.csv", index=False)


def _rle(mask: np.ndarray) -> str:
    """Row-major, 1-based ``start length`` pairs of the mask's foreground."""
    pixels = np.concatenate([[0], mask.flatten() > 0, [0]]).astype(int)
    edges = np.flatnonzero(pixels[1:] != pixels[:-1]) + 1
    edges[1::2] -= edges[::2]
    return " ".join(map(str, edges))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """One fragment's ink mask as RLE (stroke-like bands), and a prediction with 2% of pixels flipped."""
    h, w = size.test_images[0]
    yy = np.arange(h)[:, None]
    truth = (np.sin(yy / 37.0) + np.cos(np.arange(w)[None, :] / 53.0)) > 0.6
    noisy = truth ^ (rng.random((h, w)) < 0.02)
    answers = pd.DataFrame({"Id": ["a"], "Predicted": [rle(truth.T)], "width": [str(w)], "height": [str(h)]})
    submission = pd.DataFrame({"Id": ["a"], "Predicted": [rle(noisy.T)]})
    return GradingInputs(answers, submission, {"height": h, "width": w})
