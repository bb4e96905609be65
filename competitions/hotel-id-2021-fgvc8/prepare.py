"""hotel-id-2021-fgvc8: v1's split of Kaggle's train.csv.

v1 drops both rows of ce27d36c9147cc19.jpg, the image Kaggle lists twice (v1 names it), so it lands on
neither side; then it holds out 10% of the remaining rows with train_test_split(random_state=0), keeps
train images under train_images/<chain>/ and moves the held-out ones to a flat test_images/ folder. The
answers are private/test.csv.
"""

import shutil
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition

LISTED_TWICE = "ce27d36c9147cc19.jpg"
SAMPLE_PREDICTION = "36363 53586 18807 64314 60181"


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw`` (see the module docstring)."""
    rows = pd.read_csv(raw / "train.csv")
    rows = rows[rows["image"] != LISTED_TWICE]
    train, test = train_test_split(rows, test_size=comp.split.test_fraction, random_state=comp.split.seed)
    write_csv(train, public / "train.csv")
    write_csv(test, private / comp.submission.answers)
    write_csv(test[["image"]].assign(hotel_id=SAMPLE_PREDICTION), public / "sample_submission.csv")
    for row in train.itertuples():
        folder = public / "train_images" / str(row.chain)
        folder.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(raw / "train_images" / str(row.chain) / row.image, folder / row.image)
    (public / "test_images").mkdir()
    for row in test.itertuples():
        shutil.copyfile(raw / "train_images" / str(row.chain) / row.image, public / "test_images" / row.image)
