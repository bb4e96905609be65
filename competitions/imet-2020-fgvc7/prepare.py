"""imet-2020-fgvc7: v1's split of Kaggle's train.csv (train_test_split 0.15, seed 0).

Each image follows its row to public/train/ or public/test/; labels.csv is copied.
"""

import shutil
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition


def _copy_images(ids: pd.Series, src: Path, dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    for image_id in ids:
        shutil.copyfile(src / f"{image_id}.png", dest / f"{image_id}.png")


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw`` (see the module docstring)."""
    train, test = split_frame(pd.read_csv(raw / "train.csv"), comp.split)
    write_csv(train, public / "train.csv")
    shutil.copyfile(raw / "labels.csv", public / "labels.csv")
    write_csv(test, private / comp.submission.answers)
    write_csv(test[["id"]].assign(attribute_ids="0 1 2"), public / "sample_submission.csv")
    _copy_images(train["id"], raw / "train", public / "train")
    _copy_images(test["id"], raw / "train", public / "test")
