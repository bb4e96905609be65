"""A small stand-in for Kaggle's billion-word-imputation download.

train_v2.txt.zip holds train_v2.txt, one tokenised English sentence per line (the real file has about 30
million).
"""

import zipfile
from pathlib import Path

import numpy as np

from authoring.grading_inputs import GradingInputs, sentences
from mlebench.spec.declarations import Competition, RealSize

WORDS = [
    "government",
    "yesterday",
    "president",
    "children",
    "announced",
    "million",
    "several",
    "company",
    "however",
    "because",
    "economic",
    "officials",
    '"quoted"',
    "country",
    "percent",
]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``."""
    lines = []
    for _ in range(4000):
        n = int(rng.integers(1, 12))
        lines.append(" ".join(rng.choice(WORDS, size=n)) + (" ." if n > 1 else ""))
    with zipfile.ZipFile(dest / "train_v2.txt.zip", "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("train_v2.txt", "\n".join(lines) + "\n")


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: word sequences, predictions with a few typos."""
    return sentences(comp, size.test_rows, (3, 45), rng)
