"""A small stand-in for Kaggle's text-normalization-challenge-english-language download: zipped CSVs."""

import csv
import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, normalized_tokens
from mlebench_spec.declarations import Competition, RealSize

TOKENS = [
    ("PLAIN", "the", "the"),
    ("PLAIN", "house", "house"),
    ("PUNCT", ".", "."),
    ("CARDINAL", "12", "twelve"),
    ("DATE", "1999", "nineteen ninety nine"),
    ("LETTERS", "BBC", "b b c"),
    ("MEASURE", "5 km", "five kilometers"),
    ("MONEY", "$3", "three dollars"),
    ("ORDINAL", "3rd", "third"),
]


def _zip_csv(frame: pd.DataFrame, dest: Path, name: str) -> None:
    buffer = io.StringIO()
    frame.to_csv(buffer, index=False, quoting=csv.QUOTE_NONNUMERIC)
    with zipfile.ZipFile(dest / f"{name}.zip", "w") as zf:
        zf.writestr(name, buffer.getvalue())


def _sentences(rng: np.random.Generator, n: int, start: int = 0) -> pd.DataFrame:
    rows = []
    for sentence in range(start, start + n):
        for token in range(int(rng.integers(2, 7))):
            rows.append((sentence, token, *TOKENS[int(rng.integers(len(TOKENS)))]))
    return pd.DataFrame(rows, columns=["sentence_id", "token_id", "class", "before", "after"])


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, all randomness from ``rng``."""
    _zip_csv(_sentences(rng, 250), dest, "en_train.csv")
    test = _sentences(rng, 20)
    _zip_csv(test[["sentence_id", "token_id", "before"]], dest, "en_test_2.csv")
    sample = pd.DataFrame(
        {"id": test["sentence_id"].astype(str) + "_" + test["token_id"].astype(str), "after": test["before"]}
    )
    _zip_csv(sample, dest, "en_sample_submission_2.csv")


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: tokens, some numbers spelled out, 97% right."""
    return normalized_tokens(comp, size.test_rows, rng)
