"""dog-breed-identification: v1 splits Kaggle's labels.csv rows (TTS 0.1, seed 0).

public: labels.csv (train rows), train/ and test/ (the images of each side), sample_submission.csv (every
breed 1/120); private: test.csv, the test ids one-hot over the 120 breeds (in submission column order).
"""

import shutil
from pathlib import Path

import pandas as pd

from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition


def _copy_images(ids: pd.Series, raw: Path, dest: Path) -> None:
    dest.mkdir()
    for image_id in ids:
        shutil.copyfile(raw / "train" / f"{image_id}.jpg", dest / f"{image_id}.jpg")


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split labels.csv, copy each side's images, write the one-hot answers and a uniform sample."""
    breeds = comp.submission.columns[1:]
    train, test = split_frame(pd.read_csv(raw / "labels.csv"), comp.split)
    train.to_csv(public / "labels.csv", index=False)
    _copy_images(train["id"], raw, public / "train")
    _copy_images(test["id"], raw, public / "test")
    one_hot = pd.DataFrame(0, index=range(len(test)), columns=breeds)
    for row, breed in enumerate(test["breed"]):
        one_hot.loc[row, breed] = 1
    one_hot.insert(0, "id", test["id"].to_numpy())
    one_hot.to_csv(private / "test.csv", index=False)
    sample = pd.DataFrame(1 / len(breeds), index=range(len(test)), columns=breeds)
    sample.insert(0, "id", test["id"].to_numpy())
    sample.to_csv(public / "sample_submission.csv", index=False)
