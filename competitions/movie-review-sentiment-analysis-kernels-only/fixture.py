"""A small stand-in for Kaggle's movie-review download: train.tsv.zip holding the phrase table."""

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, labels
from authoring.synthetic import numbered
from mlebench_spec.declarations import Competition, RealSize

WORDS = ["a", "the", "film", "movie", "is", "good", "bad", "dull", "funny", "plot", "acting", "not", "very"]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the stand-in download into ``dest``."""
    rows = []
    for sentence in range(1, 31):
        words = list(rng.choice(WORDS, size=8))
        for start in range(0, 8, 2):
            for stop in range(start + 1, 9, 3):
                rows.append(
                    (sentence, " ".join(words[start:stop]), int(rng.choice(5, p=[0.2, 0.2, 0.3, 0.2, 0.1])))
                )
    frame = pd.DataFrame(rows, columns=["SentenceId", "Phrase", "Sentiment"])
    frame.insert(0, "PhraseId", range(1, len(frame) + 1))
    with zipfile.ZipFile(dest / "train.tsv.zip", "w") as zf:
        zf.writestr("train.tsv", frame.to_csv(sep="\t", index=False))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: a sentiment 0-4 per phrase."""
    return labels(comp, size.test_rows, numbered(5), rng)
