"""A small stand-in for Kaggle's AES 2.0 download: train.csv (essay_id, full_text, score)."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, regression
from authoring.synthetic import ids
from mlebench_spec.declarations import Competition, RealSize

WORDS = [
    "the",
    "car",
    "should",
    "students",
    "because",
    "school",
    "venus",
    "driverless",
    "face",
    "mars",
    "think",
]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small stand-in download into ``dest``."""
    n = 300
    frame = pd.DataFrame(
        {
            "essay_id": [f"{x:07x}" for x in rng.choice(16**7, size=n, replace=False)],
            "full_text": [" ".join(rng.choice(WORDS, size=rng.integers(8, 30))) + "." for _ in range(n)],
            "score": rng.integers(1, 7, size=n),
        }
    )
    frame.to_csv(dest / "train.csv", index=False)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: essay scores 0-6, predictions off by about one."""
    n = size.test_rows
    return regression(comp, ids("", n), rng.integers(0, 7, n), 0.8, rng)
