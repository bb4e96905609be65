"""A small stand-in for Kaggle's dog-breed-identification download: labels.csv and tiny train/*.jpg."""

from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from authoring.grading_inputs import GradingInputs, probabilities
from authoring.kaggle_standin import image_bytes
from mlebench_spec.declarations import Competition, RealSize

_BREEDS = yaml.safe_load((Path(__file__).parent / "competition.yaml").read_text())["submission"]["columns"][
    1:
]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write labels.csv (id, breed) and one 8x8 JPEG per id under train/."""
    n = 300
    ids = [rng.bytes(16).hex() for _ in range(n)]
    labels = pd.DataFrame({"id": ids, "breed": rng.choice(_BREEDS, size=n)})
    labels.to_csv(dest / "labels.csv", index=False)
    (dest / "train").mkdir()
    for image_id in ids:
        (dest / "train" / f"{image_id}.jpg").write_bytes(image_bytes(rng))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: one-hot answers, softmax predictions."""
    return probabilities(comp, size.test_rows, rng)
