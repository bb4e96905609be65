"""A small stand-in for Kaggle's aerial-cactus-identification download.

train.csv (id, has_cactus), train.zip (train/<id>.jpg), test.zip (test/<id>.jpg) and sample_submission.csv.
"""

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, binary
from authoring.kaggle_standin import image_bytes
from mlebench_spec.declarations import Competition, RealSize


def _zip(path: Path, folder: str, ids: list[str], rng: np.random.Generator) -> None:
    with zipfile.ZipFile(path, "w") as zf:
        for name in ids:
            zf.writestr(f"{folder}/{name}", image_bytes(rng, (32, 32)))


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``."""
    ids = [f"{rng.bytes(16).hex()}.jpg" for _ in range(200)]
    train = pd.DataFrame({"id": ids, "has_cactus": rng.choice([0, 1], size=len(ids), p=[0.25, 0.75])})
    train.to_csv(dest / "train.csv", index=False)
    _zip(dest / "train.zip", "train", ids, rng)
    test_ids = [f"{rng.bytes(16).hex()}.jpg" for _ in range(10)]
    _zip(dest / "test.zip", "test", test_ids, rng)
    pd.DataFrame({"id": test_ids, "has_cactus": 0.5}).to_csv(dest / "sample_submission.csv", index=False)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 answers, noisy scores."""
    return binary(comp, size.test_rows, rng)
