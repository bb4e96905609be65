"""rsna-2022-cervical-spine-fracture-detection: MLE-bench v1's study-level split of Kaggle's train.csv.

v1 draws a small TRAIN set (ratio 0.1) with one Python random.Random(seed) stream, in four draws:
1. round(0.1 x #overlap) of the studies with both boxes and a segmentation (the boxed studies in sorted
   order that are also segmented);
2. segmentation-only studies (sorted), to bring the segmented ones to round(0.1 x #segmented);
3. box-only studies (sorted), to bring the boxed ones to round(0.1 x #boxed);
4. any study not drawn yet (in train.csv's order, annotated or not), to reach round(0.1 x #studies).
Every other study (about 90%) is test. Only the studies of draws 1-2 keep their segmentation in public, and
only those of draws 1 and 3 their boxes: a study draw 4 picks is public without its annotations, as in v1.
Images go to train_images/ or test_images/. Test labels are melted to one row per (study, prediction_type)
with row_id "{UID}_{prediction_type}".
"""

import random
import shutil
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition

RATIO = 0.1
ID = "StudyInstanceUID"
TARGETS = ["patient_overall", "C1", "C2", "C3", "C4", "C5", "C6", "C7"]


def _draws(studies: list[str], boxed: list[str], segmented: list[str], seed: int) -> tuple[list, list, list]:
    """Return (train studies, those whose boxes are public, those whose segmentation is public)."""
    rng = random.Random(seed)
    seg_set = set(segmented)
    overlap = [s for s in boxed if s in seg_set]
    both = rng.sample(overlap, round(RATIO * len(overlap)))
    seg_only = rng.sample(
        [s for s in segmented if s not in overlap], round(RATIO * len(segmented)) - len(both)
    )
    box_only = rng.sample([s for s in boxed if s not in overlap], round(RATIO * len(boxed)) - len(both))
    chosen = both + seg_only + box_only
    taken = set(chosen)
    rest = rng.sample([s for s in studies if s not in taken], round(RATIO * len(studies)) - len(chosen))
    return chosen + rest, both + box_only, both + seg_only


def _melt(test: pd.DataFrame) -> pd.DataFrame:
    rows = test.melt(id_vars=ID, value_vars=TARGETS, var_name="prediction_type", value_name="fractured")
    return rows.assign(row_id=rows[ID] + "_" + rows["prediction_type"])


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split the raw download into ``public`` and ``private`` as v1 does."""
    labels = pd.read_csv(raw / "train.csv")
    boxes = pd.read_csv(raw / "train_bounding_boxes.csv")
    segmented = sorted(p.stem for p in (raw / "segmentations").glob("*.nii"))
    chosen, with_boxes, with_masks = _draws(
        labels[ID].tolist(), sorted(set(boxes[ID])), segmented, comp.split.seed
    )
    train, test = labels[labels[ID].isin(chosen)], labels[~labels[ID].isin(chosen)]
    write_csv(train, public / "train.csv")
    write_csv(boxes[boxes[ID].isin(with_boxes)], public / "train_bounding_boxes.csv")
    (public / "segmentations").mkdir()
    for uid in with_masks:
        shutil.copyfile(raw / "segmentations" / f"{uid}.nii", public / "segmentations" / f"{uid}.nii")
    for side, rows in (("train_images", train), ("test_images", test)):
        for uid in rows[ID]:
            shutil.copytree(raw / "train_images" / uid, public / side / uid)
    answers = _melt(test)
    write_csv(answers, private / comp.submission.answers)
    write_csv(answers[[ID, "prediction_type", "row_id"]], public / "test.csv")
    write_csv(answers[["row_id"]].assign(fractured=0.5), public / "sample_submission.csv")
