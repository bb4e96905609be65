"""A small stand-in for Kaggle's plant-seedlings-classification download: train/<species>/*.png."""

from pathlib import Path

import numpy as np

from authoring.grading_inputs import GradingInputs, labels
from authoring.kaggle_standin import image_bytes
from authoring.synthetic import names
from mlebench_spec.declarations import Competition, RealSize

SPECIES = [
    "Black-grass",
    "Charlock",
    "Cleavers",
    "Common Chickweed",
    "Common wheat",
    "Fat Hen",
    "Loose Silky-bent",
    "Maize",
    "Scentless Mayweed",
    "Shepherds Purse",
    "Small-flowered Cranesbill",
    "Sugar beet",
]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small synthetic download into the empty folder ``dest``."""
    for species in SPECIES:
        folder = dest / "train" / species
        folder.mkdir(parents=True)
        for _ in range(20):
            name = f"{rng.integers(0, 16**9):09x}.png"
            (folder / name).write_bytes(image_bytes(rng, fmt="PNG"))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: one of the twelve species per image."""
    return labels(comp, size.test_rows, names(*SPECIES), rng)
