"""plant-pathology-2020-fgvc7: MLE-bench v1's split of Kaggle's train.csv (TTS 0.1, seed 0).

Both sides are renamed in split order, ``Train_{i}`` and ``Test_{i}``, and each image is copied into
``images/`` under its new name. The sample submission gives 0.25 to every class.
"""

import shutil
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition

CLASSES = ["healthy", "multiple_diseases", "rust", "scab"]


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw``."""
    train, test = split_frame(pd.read_csv(raw / "train.csv"), comp.split)
    (public / "images").mkdir(parents=True, exist_ok=True)
    train = renamed(train, "Train", raw / "images", public / "images")
    test = renamed(test, "Test", raw / "images", public / "images")
    write_csv(train, public / "train.csv")
    write_csv(test[["image_id"]], public / "test.csv")
    write_csv(test, private / comp.submission.answers)
    write_csv(test[["image_id"]].assign(**dict.fromkeys(CLASSES, 0.25)), public / "sample_submission.csv")


def renamed(rows: pd.DataFrame, prefix: str, source: Path, dest: Path) -> pd.DataFrame:
    """``rows`` with ids ``{prefix}_0..n-1`` in order, their images copied to ``dest`` under the new ids."""
    new_ids = [f"{prefix}_{i}" for i in range(len(rows))]
    for old, new in zip(rows["image_id"], new_ids, strict=True):
        shutil.copyfile(source / f"{old}.jpg", dest / f"{new}.jpg")
    return rows.assign(image_id=new_ids)
