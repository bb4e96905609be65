"""jigsaw-unintended-bias-in-toxicity-classification: v1 uses Kaggle's labelled private test set as test.

Public: train.csv (Kaggle's, as is), test.csv (id, comment_text of test_private_expanded.csv),
sample_submission.csv (prediction 0.0). Private: test.csv, the expanded file verbatim (toxicity and the
identity columns the metric needs); the grader reads its ``toxicity`` as the submission's ``prediction``
(``submission.derived_columns``).
"""

import shutil
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build public/ and private/ from ``raw`` as v1 does (see the module docstring)."""
    shutil.copyfile(raw / "train.csv", public / "train.csv")
    test = pd.read_csv(raw / "test_private_expanded.csv", dtype=str, keep_default_na=False)
    write_csv(test[["id", "comment_text"]], public / "test.csv")
    write_csv(test[["id"]].assign(prediction=0.0), public / "sample_submission.csv")
    shutil.copyfile(raw / "test_private_expanded.csv", private / comp.submission.answers)
