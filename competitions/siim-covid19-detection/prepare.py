"""siim-covid19-detection: MLE-bench v1's study-level split of Kaggle's training data.

v1 sends 10% of the rows of train_study_level.csv to test with scikit-learn's train_test_split (seed 0);
images and their folders follow their StudyInstanceUID. The private test.csv holds one row per test study
("{class} 1 0 0 1 1" for its one-hot class) and one row per test image (its label string); the sample
submission predicts "negative 1 0 0 1 1" for studies and "none 1 0 0 1 1" for images. As in v1, every
study and image table is sorted by id, and the answers list the test studies before the test images.
"""

import shutil
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition

CLASSES = {
    "Negative for Pneumonia": "negative",
    "Typical Appearance": "typical",
    "Indeterminate Appearance": "indeterminate",
    "Atypical Appearance": "atypical",
}
DUMMY_BOX = "1 0 0 1 1"


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split the raw download into ``public`` and ``private`` as v1 does."""
    studies = pd.read_csv(raw / "train_study_level.csv")
    images = pd.read_csv(raw / "train_image_level.csv")
    train, test = (side.sort_values("id") for side in split_frame(studies, comp.split))
    test_uids = test["id"].str.removesuffix("_study")
    in_test = images["StudyInstanceUID"].isin(test_uids)
    test_images = images[in_test].sort_values("id")
    write_csv(train, public / "train_study_level.csv")
    write_csv(images[~in_test].sort_values("id"), public / "train_image_level.csv")
    for side, uids in (("train", train["id"].str.removesuffix("_study")), ("test", test_uids)):
        for uid in uids:
            shutil.copytree(raw / "train" / uid, public / side / uid)
    study_class = test[list(CLASSES)].idxmax(axis=1).map(CLASSES)
    answers = pd.concat(
        [
            pd.DataFrame({"id": test["id"], "PredictionString": study_class + " " + DUMMY_BOX}),
            test_images[["id"]].assign(PredictionString=test_images["label"]),
        ]
    )
    write_csv(answers, private / comp.submission.answers)
    sample = answers[["id"]].assign(PredictionString=f"none {DUMMY_BOX}")
    sample.loc[sample["id"].str.endswith("_study"), "PredictionString"] = f"negative {DUMMY_BOX}"
    write_csv(sample, public / "sample_submission.csv")
