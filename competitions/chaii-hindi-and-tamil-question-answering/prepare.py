"""chaii-hindi-and-tamil-question-answering: MLE-bench v1's split of Kaggle's train.csv.

v1 splits the rows with train_test_split(test_size=0.1, random_state=0); public test.csv drops
answer_text and answer_start; the answers are (id, PredictionString = answer_text); the sample submission
predicts "dummy text".
"""

from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Prepare ``raw`` into ``public`` and ``private`` as MLE-bench v1 does."""
    train, test = split_frame(pd.read_csv(raw / "train.csv"), comp.split)
    write_csv(train, public / "train.csv")
    write_csv(test.drop(columns=["answer_text", "answer_start"]), public / "test.csv")
    write_csv(test[["id"]].assign(PredictionString="dummy text"), public / "sample_submission.csv")
    answers = test[["id"]].assign(PredictionString=test["answer_text"])
    write_csv(answers, private / comp.submission.answers)
