"""A small stand-in for Kaggle's us-patent-phrase-to-phrase-matching download: train.csv."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, regression
from authoring.synthetic import ids
from mlebench_spec.declarations import Competition, RealSize

_WORDS = "abatement acid layer gear wheel engine pump valve signal circuit rotor blade".split()


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, every random choice drawn from ``rng``."""
    n = 300
    frame = pd.DataFrame(
        {
            "id": [f"{v:016x}" for v in rng.integers(0, 2**62, size=n)],
            "anchor": [" ".join(rng.choice(_WORDS, size=2)) for _ in range(n)],
            "target": [" ".join(rng.choice(_WORDS, size=3)) for _ in range(n)],
            "context": [f"{c}{rng.integers(1, 99):02d}" for c in rng.choice(list("ABCDEFGH"), size=n)],
            "score": rng.choice([0.0, 0.25, 0.5, 0.75, 1.0], size=n),
        }
    )
    frame.drop_duplicates("id").to_csv(dest / "train.csv", index=False)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: scores 0, 0.25, ..., 1, predictions with Gaussian noise."""
    n = size.test_rows
    return regression(comp, ids("", n), rng.integers(0, 5, n) / 4, 0.2, rng)
