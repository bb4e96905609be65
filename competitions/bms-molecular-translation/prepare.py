"""bms-molecular-translation: MLE-bench v1's split of Kaggle's train_labels.csv and train/ images.

v1 splits the rows with train_test_split(test_size=0.2, random_state=0); each image follows its row into
train/ or test/, nested by the first three characters of its id. extra_approved_InChIs.csv is copied; the
sample submission predicts InChI=1S/H2O/h1H2; the held-out rows are the answers.
"""

import shutil
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import link_or_copy, write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition


def _image_path(root: Path, image_id: str) -> Path:
    return root / image_id[0] / image_id[1] / image_id[2] / f"{image_id}.png"


def _copy_images(src: Path, dest: Path, ids: pd.Series) -> None:
    for image_id in ids:
        link_or_copy(_image_path(src, image_id), _image_path(dest, image_id))


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Prepare ``raw`` into ``public`` and ``private`` as MLE-bench v1 does."""
    train, test = split_frame(pd.read_csv(raw / "train_labels.csv"), comp.split)
    write_csv(train, public / "train_labels.csv")
    write_csv(test[["image_id"]].assign(InChI="InChI=1S/H2O/h1H2"), public / "sample_submission.csv")
    write_csv(test, private / comp.submission.answers)
    shutil.copyfile(raw / "extra_approved_InChIs.csv", public / "extra_approved_InChIs.csv")
    _copy_images(raw / "train", public / "train", train["image_id"])
    _copy_images(raw / "train", public / "test", test["image_id"])
