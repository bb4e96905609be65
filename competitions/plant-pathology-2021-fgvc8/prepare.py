"""plant-pathology-2021-fgvc8: MLE-bench v1's split of Kaggle's train.csv (TTS 0.2, seed 0).

Images follow their rows into ``train_images/`` and ``test_images/``; the sample submission predicts
``healthy`` everywhere.
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
    write_csv(test[["image"]].assign(labels="healthy"), public / "sample_submission.csv")
    for folder, rows in (("train_images", train), ("test_images", test)):
        (public / folder).mkdir(parents=True, exist_ok=True)
        for name in rows["image"]:
            shutil.copyfile(raw / "train_images" / name, public / folder / name)
