"""A small stand-in for Kaggle's billion-word-imputation download.

train_v2.txt.zip holds train_v2.txt, one tokenised sentence per line: 4000 of a few words, then one-token
lines (``.``, which always stay in train) up to the real file's 30,301,028 lines. v1's prepare counts on
exactly that many (it stops there and asserts it read them all), so this is the smallest download it runs
on unchanged; the one-token lines compress to almost nothing.
"""

import zipfile
from pathlib import Path

import numpy as np

from authoring.grading_inputs import GradingInputs, sentences
from mlebench_spec.declarations import Competition, RealSize

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


V1_LINES = 30_301_028
SENTENCES = 4000


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``."""
    lines = []
    for _ in range(SENTENCES):
        n = int(rng.integers(1, 12))
        lines.append(" ".join(rng.choice(WORDS, size=n)) + (" ." if n > 1 else ""))
    with zipfile.ZipFile(dest / "train_v2.txt.zip", "w", compression=zipfile.ZIP_DEFLATED) as zf:
        with zf.open("train_v2.txt", "w") as out:
            out.write(("\n".join(lines) + "\n").encode("utf-8"))
            padding, step = V1_LINES - SENTENCES, 1 << 20
            for start in range(0, padding, step):
                out.write(b".\n" * min(step, padding - start))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: word sequences, predictions with a few typos."""
    return sentences(comp, size.test_rows, (3, 45), rng)
