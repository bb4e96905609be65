"""aerial-cactus-identification: MLE-bench v1's split of Kaggle's train.csv and train.zip.

v1 extracts train.zip, splits the rows of train.csv with train_test_split(test_size=0.19, random_state=0),
and re-zips the images as public train.zip and test.zip, each image at the archive's root (v1 zips the
contents of its train/ and test/ folders, not the folders, though Kaggle's train.zip holds a train/
folder). The sample submission gives every test image has_cactus = 0.5; the held-out rows are the answers.
"""

import tempfile
from pathlib import Path

import pandas as pd

from mlebench.data.archives import extract_zip, write_zip
from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Prepare ``raw`` into ``public`` and ``private`` as MLE-bench v1 does."""
    train, test = split_frame(pd.read_csv(raw / "train.csv"), comp.split)
    with tempfile.TemporaryDirectory() as tmp:
        extract_zip(raw / "train.zip", Path(tmp))
        images = Path(tmp) / "train"
        write_zip([images / name for name in train["id"]], images, public / "train.zip")
        write_zip([images / name for name in test["id"]], images, public / "test.zip")
    write_csv(train, public / "train.csv")
    write_csv(test[["id"]].assign(has_cactus=0.5), public / "sample_submission.csv")
    write_csv(test, private / comp.submission.answers)
