"""A small stand-in for Kaggle's detecting-insults download: train.csv and test_with_solutions.csv."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, binary
from mlebench_spec.declarations import Competition, RealSize

_WORDS = ["you", "are", "an", "idiot", "great", "point", "stupid", "thanks", "loser", "nice", "dumb", "post"]


def _frame(n: int, start: int, rng: np.random.Generator) -> pd.DataFrame:
    comments = [f'"{" ".join(rng.choice(_WORDS, size=6))} #{start + i}"' for i in range(n)]
    dates = [f"2012{rng.integers(1, 13):02d}{rng.integers(1, 29):02d}120000Z" for _ in range(n)]
    dates = [d if rng.random() > 0.2 else "" for d in dates]
    return pd.DataFrame({"Insult": rng.integers(0, 2, size=n), "Date": dates, "Comment": comments})


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write train.csv and test_with_solutions.csv (with Usage) into ``dest``."""
    _frame(120, 0, rng).to_csv(dest / "train.csv", index=False)
    test = _frame(60, 1000, rng).assign(
        Usage=lambda f: np.where(np.arange(len(f)) % 3, "PublicTest", "PrivateTest")
    )
    test.to_csv(dest / "test_with_solutions.csv", index=False)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 answers, noisy scores."""
    return binary(comp, size.test_rows, rng)
