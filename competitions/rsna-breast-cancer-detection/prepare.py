"""rsna-breast-cancer-detection: MLE-bench v1's patient-level split of Kaggle's train.csv.

v1 sends 10% of the unique patient_ids (in order of appearance) to test with scikit-learn's
train_test_split (seed 42). Test images keep only the columns of Kaggle's test.csv plus prediction_id
("{patient_id}_{laterality}"); the answers hold one row per prediction_id (its first image's label) and the
sample submission predicts the train cancer rate. Each patient's image folder follows the patient.
"""

import shutil
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition

TEST_COLUMNS = ["site_id", "patient_id", "image_id", "laterality", "view", "age", "implant", "machine_id"]


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split the raw download into ``public`` and ``private`` as v1 does."""
    images = pd.read_csv(raw / "train.csv")
    size = comp.split.test_size or comp.split.test_fraction
    _, test_patients = train_test_split(
        images["patient_id"].unique(), test_size=size, random_state=comp.split.seed
    )
    in_test = images["patient_id"].isin(test_patients)
    train, test = images[~in_test], images[in_test].copy()
    test["prediction_id"] = test["patient_id"].astype(str) + "_" + test["laterality"]
    answers = test.groupby("prediction_id", as_index=False)["cancer"].first()
    write_csv(train, public / "train.csv")
    write_csv(test[TEST_COLUMNS + ["prediction_id"]], public / "test.csv")
    write_csv(answers, private / comp.submission.answers)
    write_csv(
        answers[["prediction_id"]].assign(cancer=train["cancer"].mean()), public / "sample_submission.csv"
    )
    for side, rows in (("train_images", train), ("test_images", test)):
        for patient in rows["patient_id"].unique():
            shutil.copytree(raw / "train_images" / str(patient), public / side / str(patient))
