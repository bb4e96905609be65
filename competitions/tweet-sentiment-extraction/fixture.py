"""A small stand-in for Kaggle's tweet-sentiment-extraction download: train.csv with the real columns."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, sentences
from mlebench_spec.declarations import Competition, RealSize

_WORDS = "i love this day so bad sad happy great awful fun work tired good hate the a my you".split()


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, every random choice drawn from ``rng``."""
    rows = []
    for _ in range(300):
        words = list(rng.choice(_WORDS, size=rng.integers(4, 12)))
        sentiment = str(rng.choice(["neutral", "positive", "negative"]))
        start = int(rng.integers(0, len(words) - 2))
        span = words[start : start + int(rng.integers(1, 3))]
        rows.append(
            {
                "textID": f"{rng.integers(16**9, 16**10):010x}",
                "text": " ".join(words),
                "selected_text": " ".join(span),
                "sentiment": sentiment,
            }
        )
    pd.DataFrame(rows).drop_duplicates("textID").to_csv(dest / "train.csv", index=False)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: word sequences, predictions with a few typos."""
    return sentences(comp, size.test_rows, (1, 20), rng)
