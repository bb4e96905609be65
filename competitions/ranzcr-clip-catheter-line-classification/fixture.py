"""A small stand-in for Kaggle's RANZCR CLiP download: train.csv, train_annotations.csv and train/*.jpg."""

import json
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from authoring.grading_inputs import GradingInputs, score_columns
from mlebench_spec.declarations import Competition, RealSize

LABELS = [
    "ETT - Abnormal",
    "ETT - Borderline",
    "ETT - Normal",
    "NGT - Abnormal",
    "NGT - Borderline",
    "NGT - Incompletely Imaged",
    "NGT - Normal",
    "CVC - Abnormal",
    "CVC - Borderline",
    "CVC - Normal",
    "Swan Ganz Catheter Present",
]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small synthetic download into the empty folder ``dest``."""
    n = 260
    uids = [f"1.2.826.0.1.3680043.8.498.{u}" for u in rng.choice(10**11, size=n, replace=False)]
    frame = pd.DataFrame({"StudyInstanceUID": uids})
    for label in LABELS:
        frame[label] = (rng.random(size=n) < 0.3).astype(int)
    frame["PatientID"] = [f"ec{p:07x}" for p in rng.integers(0, 90, size=n)]
    frame.to_csv(dest / "train.csv", index=False)
    positives = frame.melt("StudyInstanceUID", LABELS, var_name="label").query("value == 1")
    points = [json.dumps(rng.integers(0, 64, size=(3, 2)).tolist()) for _ in range(len(positives))]
    annotations = positives[["StudyInstanceUID", "label"]].assign(data=points)
    annotations.to_csv(dest / "train_annotations.csv", index=False)
    (dest / "train").mkdir()
    for uid in uids:
        pixels = rng.integers(0, 256, size=(8, 8), dtype=np.uint8)
        Image.fromarray(pixels).save(dest / "train" / f"{uid}.jpg", quality=90)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 labels per column, noisy scores."""
    return score_columns(comp, size.test_rows, rng, p_positive=0.1)
