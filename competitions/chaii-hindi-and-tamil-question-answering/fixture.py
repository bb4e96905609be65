"""A small stand-in for Kaggle's chaii download.

train.csv with the real columns, plus test.csv and sample_submission.csv (which MLE-bench v1 does not use).
"""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, sentences
from mlebench_spec.declarations import Competition, RealSize

WORDS = ["नदी", "शहर", "राजा", "भारत", "வரலாறு", "நகரம்", "மன்னர்", "இந்தியா", "1947", "गंगा", "கடல்", "पर्वत"]


def _row(rng: np.random.Generator) -> dict:
    words = list(rng.choice(WORDS, size=30))
    start = int(rng.integers(0, 25))
    answer = " ".join(words[start : start + int(rng.integers(1, 4))])
    context = " ".join(words)
    return {
        "id": rng.bytes(5).hex(),
        "context": context,
        "question": " ".join(rng.choice(WORDS, size=5)) + "?",
        "answer_text": answer,
        "answer_start": context.index(answer),
        "language": "hindi" if rng.random() < 0.6 else "tamil",
    }


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``."""
    pd.DataFrame([_row(rng) for _ in range(300)]).to_csv(dest / "train.csv", index=False)
    test = pd.DataFrame([_row(rng) for _ in range(5)])
    test[["id", "context", "question", "language"]].to_csv(dest / "test.csv", index=False)
    test[["id"]].assign(PredictionString="").to_csv(dest / "sample_submission.csv", index=False)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: word sequences, predictions with a few typos."""
    return sentences(comp, size.test_rows, (1, 6), rng)
