"""rsna-2022-cervical-spine-fracture-detection: MLE-bench v1's study-level split of Kaggle's train.csv.

v1 draws a small TRAIN set (ratio 0.1) with Python's random.Random(seed), favouring annotated studies:
first round(0.1 x n) of the studies with both boxes and a segmentation, then segmentation-only studies
until round(0.1 x #segmented) segmented studies are in, then box-only studies until round(0.1 x #boxed),
then other studies until round(0.1 x #studies). Every other study (about 90%) is test. Boxes and
segmentations of train studies stay public; images go to train_images/ or test_images/. Test labels are
melted to one row per (study, prediction_type) with row_id "{UID}_{prediction_type}".
"""

import random
import shutil
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.spec.declarations import Competition

RATIO = 0.1
ID = "StudyInstanceUID"
TARGETS = ["patient_overall", "C1", "C2", "C3", "C4", "C5", "C6", "C7"]


def _train_studies(studies: list[str], boxed: set[str], segmented: set[str], seed: int) -> list[str]:
    rng = random.Random(seed)
    both = [s for s in studies if s in boxed and s in segmented]
    chosen = rng.sample(both, round(RATIO * len(both)))
    steps = [
        ([s for s in studies if s in segmented and s not in boxed], segmented),
        ([s for s in studies if s in boxed and s not in segmented], boxed),
        ([s for s in studies if s not in boxed and s not in segmented], set(studies)),
    ]
    for candidates, kind in steps:
        missing = round(RATIO * len(kind)) - sum(s in kind for s in chosen)
        chosen += rng.sample(candidates, min(max(missing, 0), len(candidates)))
    return chosen


def _melt(test: pd.DataFrame) -> pd.DataFrame:
    rows = test.melt(id_vars=ID, value_vars=TARGETS, var_name="prediction_type", value_name="fractured")
    return rows.assign(row_id=rows[ID] + "_" + rows["prediction_type"])


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split the raw download into ``public`` and ``private`` as v1 does."""
    labels = pd.read_csv(raw / "train.csv")
    boxes = pd.read_csv(raw / "train_bounding_boxes.csv")
    segmented = {p.stem for p in (raw / "segmentations").glob("*.nii")}
    chosen = set(_train_studies(labels[ID].tolist(), set(boxes[ID]), segmented, comp.split.seed))
    train, test = labels[labels[ID].isin(chosen)], labels[~labels[ID].isin(chosen)]
    write_csv(train, public / "train.csv")
    write_csv(boxes[boxes[ID].isin(chosen)], public / "train_bounding_boxes.csv")
    (public / "segmentations").mkdir()
    for uid in sorted(segmented & chosen):
        shutil.copyfile(raw / "segmentations" / f"{uid}.nii", public / "segmentations" / f"{uid}.nii")
    for side, rows in (("train_images", train), ("test_images", test)):
        for uid in rows[ID]:
            shutil.copytree(raw / "train_images" / uid, public / side / uid)
    answers = _melt(test)
    write_csv(answers, private / comp.submission.answers)
    write_csv(answers[[ID, "prediction_type", "row_id"]], public / "test.csv")
    write_csv(answers[["row_id"]].assign(fractured=0.5), public / "sample_submission.csv")
