"""seti-breakthrough-listen: MLE-bench v1's split of Kaggle's train_labels.csv.

v1 sends 10% of the rows to test with scikit-learn's train_test_split (seed 0); each id's cadence file
train/<id[0]>/<id>.npy goes to public train/ or test/ in the same layout. Kaggle's old_leaky_data/ is copied
into the public folder unchanged. The private test.csv holds the labels; the sample submission predicts 0.5.
"""

import shutil
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split the raw download into ``public`` and ``private`` as v1 does."""
    train, test = split_frame(pd.read_csv(raw / "train_labels.csv", dtype={"id": str}), comp.split)
    for side, rows in (("train", train), ("test", test)):
        for name in rows["id"]:
            (public / side / name[0]).mkdir(parents=True, exist_ok=True)
            shutil.copyfile(raw / "train" / name[0] / f"{name}.npy", public / side / name[0] / f"{name}.npy")
    shutil.copytree(raw / "old_leaky_data", public / "old_leaky_data")
    write_csv(train, public / "train_labels.csv")
    write_csv(test, private / comp.submission.answers)
    write_csv(test[["id"]].assign(target=0.5), public / "sample_submission.csv")
