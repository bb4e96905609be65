"""osic-pulmonary-fibrosis-progression: MLE-bench v1's split of Kaggle's train.csv by patient.

v1 runs ``train_test_split`` (test 0.1, seed 0) over the patients (pandas groups, so sorted by id); each
side keeps its patients' rows in split order and their CT folders. Public ``test.csv`` holds each test
patient's earliest visit. The answers and the sample are a grid of every test patient by every week from
the smallest to the largest test week: the answers carry the measured FVC where there was a visit (blank
otherwise) and Confidence 100; the sample predicts FVC 2000 with Confidence 100.
"""

import shutil
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw``."""
    visits = pd.read_csv(raw / "train.csv")
    groups = dict(list(visits.groupby("Patient")))
    size = comp.split.test_size or comp.split.test_fraction
    train_ids, test_ids = train_test_split(list(groups), test_size=size, random_state=comp.split.seed)
    train = pd.concat([groups[p] for p in train_ids])
    test = pd.concat([groups[p] for p in test_ids])
    write_csv(train, public / "train.csv")
    write_csv(test.loc[test.groupby("Patient")["Weeks"].idxmin()], public / "test.csv")

    weeks = range(test["Weeks"].min(), test["Weeks"].max() + 1)
    grid = pd.DataFrame([(p, w) for p in test_ids for w in weeks], columns=["Patient", "Weeks"])
    answers = grid.merge(test, on=["Patient", "Weeks"], how="left")
    answers["Patient_Week"] = answers["Patient"] + "_" + answers["Weeks"].astype(str)
    answers["Confidence"] = 100
    write_csv(answers, private / comp.submission.answers)
    write_csv(answers[["Patient_Week"]].assign(FVC=2000, Confidence=100), public / "sample_submission.csv")
    for name, patients in (("train", train_ids), ("test", test_ids)):
        for patient in patients:
            shutil.copytree(raw / "train" / patient, public / name / patient)
