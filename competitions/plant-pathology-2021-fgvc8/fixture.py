"""A small stand-in for Kaggle's plant-pathology-2021-fgvc8 download: train.csv and train_images/."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, label_sets
from authoring.kaggle_standin import image_bytes
from mlebench_spec.declarations import Competition, RealSize

LABELS = [
    "healthy",
    "scab",
    "frog_eye_leaf_spot",
    "rust",
    "complex",
    "powdery_mildew",
    "scab frog_eye_leaf_spot",
]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the stand-in download into ``dest``."""
    n = 200
    images = [f"{v:016x}.jpg" for v in rng.integers(0, 2**62, size=n)]
    labels = rng.choice(LABELS, size=n, p=[0.3, 0.2, 0.15, 0.1, 0.1, 0.1, 0.05])
    pd.DataFrame({"image": images, "labels": labels}).to_csv(dest / "train.csv", index=False)
    pd.DataFrame({"image": ["85f8cb619c66b863.jpg"], "labels": ["healthy"]}).to_csv(
        dest / "sample_submission.csv", index=False
    )
    for folder, names in (("train_images", images), ("test_images", ["85f8cb619c66b863.jpg"])):
        (dest / folder).mkdir()
        for name in names:
            (dest / folder / name).write_bytes(image_bytes(rng, (8, 6)))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: one or two of the six single labels per image."""
    single = np.array([label for label in LABELS if " " not in label], dtype=object)
    return label_sets(comp, size.test_rows, single, (1, 2), rng)
