"""A small stand-in for Kaggle's paddy-disease-classification download: train.csv, images by label."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, labels
from authoring.kaggle_standin import image_bytes
from authoring.synthetic import names
from mlebench_spec.declarations import Competition, RealSize

DISEASES = [
    "normal",
    "blast",
    "hispa",
    "tungro",
    "bacterial_leaf_blight",
    "dead_heart",
    "brown_spot",
    "downy_mildew",
    "bacterial_leaf_streak",
    "bacterial_panicle_blight",
]
LABELS = DISEASES[:5]  # the stand-in download uses five of the ten labels
VARIETIES = ["ADT45", "KarnatakaPonni", "Ponni", "Zonal"]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the stand-in download into ``dest``."""
    n = 120
    train = pd.DataFrame(
        {
            "image_id": [f"{100000 + i}.jpg" for i in rng.permutation(n)],
            "label": [LABELS[i % len(LABELS)] for i in range(n)],
            "variety": rng.choice(VARIETIES, size=n),
            "age": rng.integers(45, 82, size=n),
        }
    )
    train.to_csv(dest / "train.csv", index=False)
    pd.DataFrame({"image_id": ["200001.jpg"], "label": [""]}).to_csv(
        dest / "sample_submission.csv", index=False
    )
    for image_id, label in zip(train["image_id"], train["label"], strict=True):
        folder = dest / "train_images" / label
        folder.mkdir(parents=True, exist_ok=True)
        (folder / image_id).write_bytes(image_bytes(rng, (6, 8)))
    test = dest / "test_images"
    test.mkdir()
    (test / "200001.jpg").write_bytes(image_bytes(rng, (6, 8)))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: one of the ten labels per image."""
    return labels(comp, size.test_rows, names(*DISEASES), rng)
