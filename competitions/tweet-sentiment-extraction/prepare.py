"""tweet-sentiment-extraction: MLE-bench v1 splits Kaggle's train.csv with TTS(0.1, seed 0).

Public: train.csv, test.csv (without selected_text) and sample_submission.csv (selected_text empty);
private: test.csv, the held-out rows.
"""

from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from the raw download, as the module docstring says."""
    train, test = split_frame(pd.read_csv(raw / "train.csv"), comp.split)
    write_csv(train, public / "train.csv")
    write_csv(test.drop(columns=["selected_text"]), public / "test.csv")
    write_csv(test, private / comp.submission.answers)
    write_csv(test[["textID"]].assign(selected_text=""), public / "sample_submission.csv")
