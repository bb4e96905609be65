"""A small stand-in for Kaggle's jigsaw-toxic download: four zipped CSVs, unscored test rows labelled -1."""

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, score_columns
from mlebench_spec.declarations import Competition, RealSize

LABELS = ["toxic", "severe_toxic", "obscene", "threat", "insult", "identity_hate"]
WORDS = ["you", "are", "a", "great", "editor", "stupid", "article", "please", "stop", "vandalism", "thanks"]


def _zip_csv(frame: pd.DataFrame, dest: Path, name: str) -> None:
    with zipfile.ZipFile(dest / f"{name}.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(name, frame.to_csv(index=False))


def _comments(rng: np.random.Generator, n: int) -> list[str]:
    return [" ".join(rng.choice(WORDS, size=rng.integers(3, 15))) + "\n" + "." for _ in range(n)]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small stand-in download into ``dest``."""
    n_train, n_test = 200, 80
    ids = [f"{x:016x}" for x in rng.choice(2**62, size=n_train + n_test, replace=False)]
    train = pd.DataFrame({"id": ids[:n_train], "comment_text": _comments(rng, n_train)})
    for label in LABELS:
        train[label] = (rng.random(n_train) < 0.3).astype(int)
    test = pd.DataFrame({"id": ids[n_train:], "comment_text": _comments(rng, n_test)})
    labels = pd.DataFrame({"id": test["id"], **{c: (rng.random(n_test) < 0.3).astype(int) for c in LABELS}})
    labels.loc[rng.random(n_test) < 0.3, LABELS] = -1
    _zip_csv(train, dest, "train.csv")
    _zip_csv(test, dest, "test.csv")
    _zip_csv(labels, dest, "test_labels.csv")
    _zip_csv(test[["id"]].assign(**{c: 0.5 for c in LABELS}), dest, "sample_submission.csv")


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 labels per column, noisy scores."""
    return score_columns(comp, size.test_rows, rng, p_positive=0.05)
