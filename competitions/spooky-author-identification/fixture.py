"""A small stand-in for Kaggle's spooky-author-identification download: train/test/sample zips of CSVs."""

import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, probabilities
from mlebench_spec.declarations import Competition, RealSize

AUTHORS = ["EAP", "HPL", "MWS"]
WORDS = "the night was dark and a strange horror crept over the ancient house of my father".split()


def _zip_csv(frame: pd.DataFrame, dest: Path, name: str) -> None:
    buffer = io.StringIO()
    frame.to_csv(buffer, index=False)
    with zipfile.ZipFile(dest / f"{name}.zip", "w") as zf:
        zf.writestr(f"{name}.csv", buffer.getvalue())


def _texts(rng: np.random.Generator, n: int) -> list[str]:
    return [" ".join(rng.choice(WORDS, size=rng.integers(5, 20))).capitalize() + "." for _ in range(n)]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, all randomness from ``rng``."""
    n = 300
    ids = [f"id{i:05d}" for i in rng.choice(99999, size=n + 30, replace=False)]
    train = pd.DataFrame({"id": ids[:n], "text": _texts(rng, n), "author": rng.choice(AUTHORS, size=n)})
    test = pd.DataFrame({"id": ids[n:], "text": _texts(rng, 30)})
    sample = test[["id"]].assign(EAP=0.4035, HPL=0.2878, MWS=0.3087)
    _zip_csv(train, dest, "train")
    _zip_csv(test, dest, "test")
    _zip_csv(sample, dest, "sample_submission")


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: one-hot answers, softmax predictions."""
    return probabilities(comp, size.test_rows, rng)
