"""rsna-miccai-brain-tumor-radiogenomic-classification: MLE-bench v1's split of Kaggle's train_labels.csv.

v1 reads BraTS21ID as text, sends 10% of the rows to test with scikit-learn's train_test_split (seed 0) and
copies each patient's scan folder to public train/ or test/. The private test.csv holds the labels; the
sample submission predicts 0.5.
"""

import shutil
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split the raw download into ``public`` and ``private`` as v1 does."""
    labels = pd.read_csv(raw / "train_labels.csv", dtype={"BraTS21ID": str})
    train, test = split_frame(labels, comp.split)
    for side, rows in (("train", train), ("test", test)):
        for patient in rows["BraTS21ID"]:
            shutil.copytree(raw / "train" / patient, public / side / patient)
    write_csv(train, public / "train_labels.csv")
    write_csv(test, private / comp.submission.answers)
    write_csv(test[["BraTS21ID"]].assign(MGMT_value=0.5), public / "sample_submission.csv")
