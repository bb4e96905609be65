"""vinbigdata-chest-xray-abnormalities-detection: MLE-bench v1's split of Kaggle's train.csv by image.

v1 splits the unique image_id values (order of appearance) with TTS(0.1, seed 0). Public: train.csv (every
radiologist's rows of the train images, in file order), train/ and test/ DICOM files, sample_submission.csv
(``14 1 0 0 1 1``). Private: answers.csv, the test rows grouped by (image_id, class_id) in sorted order,
each column taking its first non-missing value (pandas' ``groupby.first``), missing boxes then set to 0 and
No finding (class 14) boxes to 0 0 1 1; and gold_submission.csv, those boxes as one
``class 1.0 x_min y_min x_max y_max`` string per image (images sorted), which is what the grader reads.
The sorted order matters: the grader numbers images and boxes in it.
"""

import shutil
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench_spec.declarations import Competition

_NO_FINDING = 14


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from the raw download, as the module docstring says."""
    boxes = pd.read_csv(raw / "train.csv")
    size = comp.split.test_size or comp.split.test_fraction
    train_ids, test_ids = train_test_split(
        boxes["image_id"].unique().tolist(), test_size=size, random_state=comp.split.seed
    )
    boxes[boxes["image_id"].isin(train_ids)].to_csv(public / "train.csv", index=False)
    answers = _consensus(boxes[boxes["image_id"].isin(test_ids)])
    answers.to_csv(private / "answers.csv", index=False)
    _gold(answers).to_csv(private / comp.submission.answers, index=False)
    sample = pd.DataFrame({"image_id": test_ids, "PredictionString": "14 1 0 0 1 1"})
    sample.to_csv(public / "sample_submission.csv", index=False)
    for side, ids in (("train", train_ids), ("test", test_ids)):
        (public / side).mkdir()
        for image_id in ids:
            shutil.copyfile(raw / "train" / f"{image_id}.dicom", public / side / f"{image_id}.dicom")


def _consensus(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per (image_id, class_id), sorted, with empty boxes 0 and No finding boxes 0 0 1 1."""
    first = rows.groupby(["image_id", "class_id"]).first().reset_index().fillna(0)
    no_finding = first["class_id"] == _NO_FINDING
    first.loc[no_finding, ["x_max", "y_max"]] = 1
    return first


def _gold(answers: pd.DataFrame) -> pd.DataFrame:
    """One PredictionString per image (sorted by image_id): ``class 1.0 x1 y1 x2 y2`` per box."""
    parts = (
        answers["class_id"].astype(str)
        + " 1.0 "
        + answers[["x_min", "y_min", "x_max", "y_max"]].astype(str).agg(" ".join, axis=1)
    )
    strings = parts.groupby(answers["image_id"]).agg(" ".join)
    return pd.DataFrame({"image_id": strings.index, "PredictionString": strings.to_numpy()})
