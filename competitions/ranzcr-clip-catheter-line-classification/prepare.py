"""ranzcr-clip-catheter-line-classification: MLE-bench v1's split of Kaggle's train.csv.

v1 sends 10% of the images (rows of train.csv) to test with scikit-learn's train_test_split (seed 0),
without grouping patients. train_annotations.csv keeps the train images only; the private test.csv keeps
every column; the sample submission lists only 9 of the 11 labels (v1's class list), all 0.
"""

import shutil
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition

ID = "StudyInstanceUID"


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split the raw download into ``public`` and ``private`` as v1 does."""
    train, test = split_frame(pd.read_csv(raw / "train.csv"), comp.split)
    annotations = pd.read_csv(raw / "train_annotations.csv")
    write_csv(train, public / "train.csv")
    write_csv(annotations[annotations[ID].isin(train[ID])], public / "train_annotations.csv")
    for side, rows in (("train", train), ("test", test)):
        (public / side).mkdir()
        for uid in rows[ID]:
            shutil.copyfile(raw / "train" / f"{uid}.jpg", public / side / f"{uid}.jpg")
    write_csv(test, private / comp.submission.answers)
    sample = test[[ID]].assign(**{label: 0 for label in comp.submission.target_columns})
    write_csv(sample, public / "sample_submission.csv")
