"""A small stand-in for Kaggle's text-normalization-challenge-russian-language download.

Three zipped CSVs: ru_train.csv.zip (sentence_id, token_id, class, before, after), and the unused
ru_test_2.csv.zip and ru_sample_submission_2.csv.zip.
"""

import csv
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, normalized_tokens
from mlebench_spec.declarations import Competition, RealSize

_PLAIN = ["Это", "был", "город", "в", "году", "улица", "дом", "он", "она", "река"]
_SPOKEN = {
    "12": "двенадцать",
    "1990": "тысяча девятьсот девяностом",
    "IT": "ай ти",
    "5 км": "пять километров",
}


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, every random choice drawn from ``rng``."""
    rows = []
    for sentence in range(300):
        for token in range(int(rng.integers(3, 7))):
            if rng.random() < 0.3:
                before = str(rng.choice(list(_SPOKEN)))
                rows.append((sentence, token, "CARDINAL", before, _SPOKEN[before]))
            elif rng.random() < 0.2:
                rows.append((sentence, token, "PUNCT", ".", "."))
            else:
                word = str(rng.choice(_PLAIN))
                rows.append((sentence, token, "PLAIN", word, word))
    train = pd.DataFrame(rows, columns=["sentence_id", "token_id", "class", "before", "after"])
    test = train[train["sentence_id"] < 40][["sentence_id", "token_id", "before"]]
    sample = pd.DataFrame(
        {"id": test["sentence_id"].astype(str) + "_" + test["token_id"].astype(str), "after": test["before"]}
    )
    for name, frame in (
        ("ru_train.csv", train),
        ("ru_test_2.csv", test),
        ("ru_sample_submission_2.csv", sample),
    ):
        text = frame.to_csv(index=False, quoting=csv.QUOTE_NONNUMERIC)
        with zipfile.ZipFile(dest / f"{name}.zip", "w", zipfile.ZIP_DEFLATED) as archive:
            archive.writestr(name, text)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: tokens, some numbers spelled out, 97% right."""
    return normalized_tokens(comp, size.test_rows, rng)
