"""spooky-author-identification: MLE-bench v1 splits Kaggle's train.csv (inside train.zip) with TTS(0.1, 0).

The answers one-hot encode the author as EAP, HPL, MWS; the sample submission gives every row the
fixed class shares of Kaggle's own sample (0.403493538995863 / 0.287808366106543 / 0.308698094897594),
written in full as v1 writes them.
"""

from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition

AUTHORS = ["EAP", "HPL", "MWS"]
PRIOR = {"EAP": 0.403493538995863, "HPL": 0.287808366106543, "MWS": 0.308698094897594}


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from ``raw`` as MLE-bench v1 does (see the module docstring)."""
    train, test = split_frame(pd.read_csv(raw / "train.zip"), comp.split)
    write_csv(train, public / "train.csv")
    write_csv(test.drop(columns=["author"]), public / "test.csv")
    answers = test[["id"]].copy()
    for author in AUTHORS:
        answers[author] = (test["author"] == author).astype(int)
    write_csv(answers, private / comp.submission.answers)
    write_csv(test[["id"]].assign(**PRIOR), public / "sample_submission.csv")
