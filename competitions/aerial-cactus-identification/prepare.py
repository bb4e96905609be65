"""aerial-cactus-identification: MLE-bench v1's split of Kaggle's train.csv and train.zip.

v1 extracts train.zip, splits the rows of train.csv with train_test_split(test_size=0.19, random_state=0),
and re-zips the images as public train.zip (train/<id>) and test.zip (test/<id>). The sample submission
gives every test image has_cactus = 0.5; the held-out rows are the answers.
"""

import tempfile
from pathlib import Path

import pandas as pd

from mlebench.data.archives import extract_zip, write_zip
from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench.spec.declarations import Competition


def _rezip(images: Path, ids: pd.Series, folder: str, archive: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        (root / folder).mkdir()
        files = []
        for name in ids:
            target = root / folder / name
            target.symlink_to((images / name).resolve())
            files.append(target)
        write_zip(files, root, archive)


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Prepare ``raw`` into ``public`` and ``private`` as MLE-bench v1 does."""
    train, test = split_frame(pd.read_csv(raw / "train.csv"), comp.split)
    with tempfile.TemporaryDirectory() as tmp:
        extract_zip(raw / "train.zip", Path(tmp))
        images = Path(tmp) / "train"
        _rezip(images, train["id"], "train", public / "train.zip")
        _rezip(images, test["id"], "test", public / "test.zip")
    write_csv(train, public / "train.csv")
    write_csv(test[["id"]].assign(has_cactus=0.5), public / "sample_submission.csv")
    write_csv(test, private / comp.submission.answers)
