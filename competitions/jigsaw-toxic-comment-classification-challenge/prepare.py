"""jigsaw-toxic-comment-classification-challenge: v1 keeps Kaggle's own split.

Public: train.csv, test.csv and Kaggle's sample_submission.csv (every label 0.5), unzipped.
Private: test.csv, Kaggle's test_labels.csv as is (rows Kaggle did not score have -1 labels; the grader
drops them).
"""

from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build public/ and private/ from ``raw`` as v1 does (see the module docstring)."""
    for name in ("train.csv", "test.csv", "sample_submission.csv"):
        write_csv(pd.read_csv(raw / f"{name}.zip"), public / name)
    write_csv(pd.read_csv(raw / "test_labels.csv.zip"), private / comp.submission.answers)
