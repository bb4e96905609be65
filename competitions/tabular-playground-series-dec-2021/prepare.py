"""tabular-playground-series-dec-2021: MLE-bench v1 splits Kaggle's train.csv with TTS(0.1, 0)."""

from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from ``raw`` as MLE-bench v1 does (see the module docstring)."""
    train, test = split_frame(pd.read_csv(raw / "train.csv"), comp.split)
    write_csv(train, public / "train.csv")
    write_csv(test.drop(columns=["Cover_Type"]), public / "test.csv")
    write_csv(test, private / comp.submission.answers)
    write_csv(test[["Id"]].assign(Cover_Type=2), public / "sample_submission.csv")
