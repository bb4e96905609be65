"""A small stand-in for Kaggle's plant-pathology-2020-fgvc7 download: train.csv (one-hot) and images/."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, score_columns
from authoring.kaggle_standin import image_bytes
from mlebench_spec.declarations import Competition, RealSize

CLASSES = ["healthy", "multiple_diseases", "rust", "scab"]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the stand-in download into ``dest``."""
    n = 300
    label = rng.choice(len(CLASSES), size=n, p=[0.3, 0.1, 0.3, 0.3])
    frame = pd.DataFrame({"image_id": [f"Train_{i}" for i in range(n)]})
    for k, name in enumerate(CLASSES):
        frame[name] = (label == k).astype(int)
    frame.to_csv(dest / "train.csv", index=False)
    pd.DataFrame({"image_id": ["Test_0"], **{c: [0.25] for c in CLASSES}}).to_csv(
        dest / "sample_submission.csv", index=False
    )
    pd.DataFrame({"image_id": ["Test_0"]}).to_csv(dest / "test.csv", index=False)
    (dest / "images").mkdir()
    for name in [*frame["image_id"], "Test_0"]:
        (dest / "images" / f"{name}.jpg").write_bytes(image_bytes(rng, (8, 6)))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 labels per column, noisy scores."""
    return score_columns(comp, size.test_rows, rng, p_positive=0.3)
