"""aptos2019-blindness-detection: MLE-bench v1's split of Kaggle's train.csv and train_images/.

v1 splits the rows of train.csv with train_test_split(test_size=0.1, random_state=0); each image
(<id_code>.png) follows its row into train_images/ or test_images/. The sample submission predicts
diagnosis 0; the held-out rows are the answers.
"""

from pathlib import Path

import pandas as pd

from mlebench.data.prepare import link_or_copy, write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition


def _copy_images(src: Path, dest: Path, ids: pd.Series) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    for id_code in ids:
        link_or_copy(src / f"{id_code}.png", dest / f"{id_code}.png")


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Prepare ``raw`` into ``public`` and ``private`` as MLE-bench v1 does."""
    train, test = split_frame(pd.read_csv(raw / "train.csv"), comp.split)
    write_csv(train, public / "train.csv")
    write_csv(test[["id_code"]], public / "test.csv")
    write_csv(test[["id_code"]].assign(diagnosis=0), public / "sample_submission.csv")
    write_csv(test, private / comp.submission.answers)
    _copy_images(raw / "train_images", public / "train_images", train["id_code"])
    _copy_images(raw / "train_images", public / "test_images", test["id_code"])
