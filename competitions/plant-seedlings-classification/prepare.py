"""plant-seedlings-classification: MLE-bench v1's split of Kaggle's labelled images.

v1 lists train/<species>/*.png (sorted), sends 14% of the (file, species) rows to test with scikit-learn's
train_test_split (seed 0), keeps the train images in their species folders, puts the test images in a flat
test/ folder and writes answers.csv (file, species) and a sample submission predicting "Sugar beet".
"""

import shutil
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split the raw download into ``public`` and ``private`` as v1 does."""
    paths = sorted((raw / "train").glob("*/*.png"))
    rows = pd.DataFrame({"file": [p.name for p in paths], "species": [p.parent.name for p in paths]})
    train, test = split_frame(rows, comp.split)
    for file, species in zip(train["file"], train["species"], strict=True):
        (public / "train" / species).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(raw / "train" / species / file, public / "train" / species / file)
    (public / "test").mkdir()
    for file, species in zip(test["file"], test["species"], strict=True):
        shutil.copyfile(raw / "train" / species / file, public / "test" / file)
    write_csv(test, private / comp.submission.answers)
    write_csv(test[["file"]].assign(species="Sugar beet"), public / "sample_submission.csv")
