"""paddy-disease-classification: MLE-bench v1's split of Kaggle's train.csv.

v1 calls ``train_test_split(train, train_size=0.75, random_state=0)``, which holds out the same rows as
``test_size=0.25``. Train images stay in ``train_images/<label>/``; test images go flat into
``test_images/``. Only the columns of Kaggle's sample submission are used, with an empty label.
"""

import shutil
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw``."""
    train, test = split_frame(pd.read_csv(raw / "train.csv"), comp.split)
    write_csv(train, public / "train.csv")
    write_csv(test, private / comp.submission.answers)
    columns = pd.read_csv(raw / "sample_submission.csv", nrows=0).columns
    sample = pd.DataFrame({c: test["image_id"] if c == "image_id" else "" for c in columns})
    write_csv(sample, public / "sample_submission.csv")
    copy_images(raw / "train_images", train, public / "train_images", by_label=True)
    copy_images(raw / "train_images", test, public / "test_images", by_label=False)


def copy_images(source: Path, rows: pd.DataFrame, dest: Path, by_label: bool) -> None:
    """Copy the images of ``rows`` from ``source/<label>/`` to ``dest`` (by label or flat)."""
    for image_id, label in zip(rows["image_id"], rows["label"], strict=True):
        folder = dest / label if by_label else dest
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source / label / image_id, folder / image_id)
