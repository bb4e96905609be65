"""A small stand-in for Kaggle's alaska2-image-steganalysis download.

Cover/<nnnnn>.jpg and, under the same names, the stego versions JMiPOD/, JUNIWARD/ and UERD/ (plus Kaggle's
own Test/ and sample_submission.csv, which MLE-bench v1 does not use). v1's prepare holds out 5,000 covers,
so there are those and 80 more to train on; each image is 8x8 pixels.
"""

import io
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from authoring.grading_inputs import GradingInputs, binary
from mlebench_spec.declarations import Competition, RealSize

N_COVERS = 5_080
FOLDERS = ["Cover", "JMiPOD", "JUNIWARD", "UERD"]


def _jpeg(pixels: np.ndarray) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(pixels).save(buf, format="JPEG", quality=95)
    return buf.getvalue()


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``."""
    for folder in FOLDERS + ["Test"]:
        (dest / folder).mkdir()
    covers = rng.integers(0, 256, size=(N_COVERS, 8, 8, 3)).astype(np.int16)
    noise = rng.integers(-1, 2, size=(len(FOLDERS) - 1, *covers.shape)).astype(np.int16)
    images = np.clip(np.concatenate([covers[None], covers[None] + noise]), 0, 255).astype(np.uint8)
    for folder, pixels in zip(FOLDERS, images, strict=True):  # Cover, then each algorithm's stego image
        for n, image in enumerate(pixels, start=1):
            (dest / folder / f"{n:05d}.jpg").write_bytes(_jpeg(image))
    for n in range(1, 6):
        (dest / "Test" / f"{n:04d}.jpg").write_bytes(_jpeg(rng.integers(0, 256, (8, 8, 3), dtype=np.uint8)))
    pd.DataFrame({"Id": [f"{n:04d}.jpg" for n in range(1, 6)], "Label": 0.5}).to_csv(
        dest / "sample_submission.csv", index=False
    )


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 answers, unbounded noisy scores."""
    return binary(comp, size.test_rows, rng, unbounded=True)
