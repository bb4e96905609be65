"""A small stand-in for Kaggle's petfinder-pawpularity-score download: train.csv and train/*.jpg."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, regression
from authoring.kaggle_standin import image_bytes
from authoring.synthetic import ids
from mlebench_spec.declarations import Competition, RealSize

FEATURES = ["Subject Focus", "Eyes", "Face", "Near", "Action", "Accessory", "Group", "Collage", "Human",
            "Occlusion", "Info", "Blur"]  # fmt: skip


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the stand-in download into ``dest``."""
    n = 300
    ids = [f"{v:032x}" for v in rng.integers(0, 2**62, size=n)]
    frame = pd.DataFrame({"Id": ids})
    for feature in FEATURES:
        frame[feature] = rng.integers(0, 2, size=n)
    frame["Pawpularity"] = rng.integers(1, 101, size=n)
    frame.to_csv(dest / "train.csv", index=False)
    (dest / "train").mkdir()
    for image_id in ids:
        (dest / "train" / f"{image_id}.jpg").write_bytes(image_bytes(rng, (6, 6)))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: pawpularity 1-100, predictions with Gaussian noise."""
    n = size.test_rows
    return regression(comp, ids("", n), rng.integers(1, 101, n).astype(float), 18.0, rng)
