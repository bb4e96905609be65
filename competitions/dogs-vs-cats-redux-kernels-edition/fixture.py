"""A small stand-in for Kaggle's dogs-vs-cats-redux download: train.zip, test.zip, sample_submission.csv."""

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, binary
from authoring.kaggle_standin import image_bytes
from mlebench_spec.declarations import Competition, RealSize


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write train.zip (train/cat.N.jpg, train/dog.N.jpg), test.zip (test/N.jpg) and the sample."""
    with zipfile.ZipFile(dest / "train.zip", "w") as zf:
        for label in ("cat", "dog"):
            for i in range(150):
                zf.writestr(f"train/{label}.{i}.jpg", image_bytes(rng))
    with zipfile.ZipFile(dest / "test.zip", "w") as zf:
        for i in range(1, 21):
            zf.writestr(f"test/{i}.jpg", image_bytes(rng))
    pd.DataFrame({"id": range(1, 21), "label": 0.5}).to_csv(dest / "sample_submission.csv", index=False)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 answers, noisy scores."""
    return binary(comp, size.test_rows, rng)
