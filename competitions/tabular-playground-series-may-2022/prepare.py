"""tabular-playground-series-may-2022: MLE-bench v1 holds out 100,000 rows of train.csv (TTS, seed 0).

Ids are then renumbered in the shuffled order TTS returns: train 0..n_train-1, test from n_train on. The
private folder also keeps a gold submission (the answers' id and target).
"""

from pathlib import Path

import numpy as np
import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from ``raw`` as MLE-bench v1 does (see the module docstring)."""
    train, test = split_frame(pd.read_csv(raw / "train.csv"), comp.split)
    train = train.assign(id=np.arange(len(train)))
    test = test.assign(id=np.arange(len(train), len(train) + len(test)))
    write_csv(train, public / "train.csv")
    write_csv(test.drop(columns=["target"]), public / "test.csv")
    write_csv(test, private / comp.submission.answers)
    write_csv(test[["id", "target"]], private / "gold_submission.csv")
    write_csv(test[["id"]].assign(target=0.5), public / "sample_submission.csv")
