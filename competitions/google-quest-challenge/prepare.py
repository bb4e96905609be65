"""google-quest-challenge: v1 splits the rows of train.csv (TTS 0.1, seed 0).

If question_type_spelling is then constant in test, the first test row trades places with the first train
row whose question_type_spelling is non-zero. public: train.csv (all 41 columns), test.csv (qa_id and the
10 question/answer columns), sample_submission.csv (every target = linspace(0, 1, n)); private: test.csv
(qa_id and the 30 targets).
"""

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench_spec.declarations import Competition


def _ensure_spelling_varies(train: pd.DataFrame, test: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    if test["question_type_spelling"].nunique() > 1:
        return train, test
    donor = int(np.flatnonzero(train["question_type_spelling"].to_numpy() != 0)[0])
    train, test = train.copy(), test.copy()
    row = test.iloc[0].copy()
    test.iloc[0] = train.iloc[donor]
    train.iloc[donor] = row
    return train, test


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split train.csv, fix a constant spelling column, write the public files and the answers."""
    targets = comp.submission.columns[1:]
    size = comp.split.test_fraction if comp.split.test_size is None else comp.split.test_size
    split = train_test_split(pd.read_csv(raw / "train.csv"), test_size=size, random_state=comp.split.seed)
    train, test = _ensure_spelling_varies(*split)
    train.to_csv(public / "train.csv", index=False)
    test.drop(columns=targets).to_csv(public / "test.csv", index=False)
    test[["qa_id", *targets]].to_csv(private / "test.csv", index=False)
    sample = pd.DataFrame({"qa_id": test["qa_id"].to_numpy()})
    for target in targets:
        sample[target] = np.linspace(0, 1, len(test))
    sample.to_csv(public / "sample_submission.csv", index=False)
