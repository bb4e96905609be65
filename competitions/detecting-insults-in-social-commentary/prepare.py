"""detecting-insults-in-social-commentary: v1 keeps Kaggle's split.

train.csv is copied; Kaggle's labelled test set (test_with_solutions.csv) becomes public/test.csv without
Insult and Usage, private/test.csv (a copy) and private/gold_submission.csv; v1's sample submission
sample_submission_null.csv (Insult = 0) also carries Date; ours has only Comment and Insult.
"""

import shutil
from pathlib import Path

import pandas as pd

from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Copy train.csv; publish the test comments and keep their labels private."""
    shutil.copyfile(raw / "train.csv", public / "train.csv")
    shutil.copyfile(raw / "test_with_solutions.csv", private / "test.csv")
    test = pd.read_csv(raw / "test_with_solutions.csv")
    test[["Date", "Comment"]].to_csv(public / "test.csv", index=False)
    test[["Insult", "Date", "Comment"]].to_csv(private / "gold_submission.csv", index=False)
    test[["Comment"]].assign(Insult=0).to_csv(public / "sample_submission_null.csv", index=False)
