"""histopathologic-cancer-detection: v1's split of Kaggle's train_labels.csv.

v1 holds out the share of Kaggle's test set in all of Kaggle's images (test / (train + test), counting
Kaggle's test/*.tif) from train_labels.csv with train_test_split(random_state=0); the held-out patches are
copied to public/test/ and Kaggle's own test images are not used. Both sides keep train_labels.csv's row
order (v1 selects their rows by id), and so do the answers and the sample submission.
"""

import shutil
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition


def _copy_images(ids: pd.Series, src: Path, dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    for image_id in ids:
        shutil.copyfile(src / f"{image_id}.tif", dest / f"{image_id}.tif")


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw`` (see the module docstring)."""
    labels = pd.read_csv(raw / "train_labels.csv")
    n_kaggle_test = sum(1 for _ in (raw / "test").glob("*.tif"))
    ratio = n_kaggle_test / (len(labels) + n_kaggle_test)
    train, test = (
        side.sort_index() for side in train_test_split(labels, test_size=ratio, random_state=comp.split.seed)
    )
    write_csv(train, public / "train_labels.csv")
    write_csv(test, private / comp.submission.answers)
    write_csv(test[["id"]].assign(label=0), public / "sample_submission.csv")
    _copy_images(train["id"], raw / "train", public / "train")
    _copy_images(test["id"], raw / "train", public / "test")
