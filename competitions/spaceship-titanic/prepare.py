"""spaceship-titanic: MLE-bench v1's split of Kaggle's train.csv (TTS 0.1, seed 0)."""

from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split train.csv as v1 does; the sample predicts False for everyone."""
    train, test = split_frame(pd.read_csv(raw / "train.csv"), comp.split)
    write_csv(train, public / "train.csv")
    write_csv(test.drop(columns=["Transported"]), public / "test.csv")
    write_csv(test, private / comp.submission.answers)
    sample = test[["PassengerId"]].assign(Transported=False)
    write_csv(sample, public / "sample_submission.csv")
