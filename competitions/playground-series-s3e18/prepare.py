"""playground-series-s3e18: MLE-bench v1's split of Kaggle's train.csv (train_test_split 0.1, seed 0).

Public test.csv drops EC1..EC6; the private test.csv keeps every column; the sample submission predicts
0.5 for EC1 and EC2, the two graded targets.
"""

from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition

TARGETS = [f"EC{k}" for k in range(1, 7)]


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split the raw download into ``public`` and ``private`` as v1 does."""
    train, test = split_frame(pd.read_csv(raw / "train.csv"), comp.split)
    write_csv(train, public / "train.csv")
    write_csv(test.drop(columns=TARGETS), public / "test.csv")
    write_csv(test, private / comp.submission.answers)
    write_csv(test[["id"]].assign(EC1=0.5, EC2=0.5), public / "sample_submission.csv")
