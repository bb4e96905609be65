"""A small stand-in for Kaggle's vinbigdata-chest-xray-abnormalities-detection download.

train.csv has one row per box and radiologist (class 14, No finding, has empty boxes); train/*.dicom
are tiny DICOM-shaped files (preamble, DICM magic, a few bytes), which prepare only copies. There are
15,000 images, as in the real download: v1's prepare checks for exactly 13,500 train and 1,500 test images.
"""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs
from authoring.synthetic import ids
from mlebench_spec.declarations import Competition, RealSize

N_IMAGES = 15_000
_CLASSES = ["Aortic enlargement", "Atelectasis", "Calcification", "Cardiomegaly", "Consolidation"]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, every random choice drawn from ``rng``."""
    images = [rng.bytes(16).hex() for _ in range(N_IMAGES)]
    rows = []
    for image_id in images:
        radiologists = rng.choice([f"R{i}" for i in range(1, 18)], size=3, replace=False)
        if rng.random() < 0.4:
            rows += [(image_id, "No finding", 14, rad, None, None, None, None) for rad in radiologists]
            continue
        for rad in radiologists:
            for class_id in rng.choice(len(_CLASSES), size=int(rng.integers(1, 3)), replace=False):
                x, y = rng.integers(0, 2000, size=2).astype(float)
                w, h = rng.integers(50, 600, size=2).astype(float)
                rows.append((image_id, _CLASSES[class_id], int(class_id), rad, x, y, x + w, y + h))
    columns = ["image_id", "class_name", "class_id", "rad_id", "x_min", "y_min", "x_max", "y_max"]
    pd.DataFrame(rows, columns=columns).to_csv(dest / "train.csv", index=False)
    (dest / "train").mkdir()
    for image_id in images:
        (dest / "train" / f"{image_id}.dicom").write_bytes(b"\0" * 128 + b"DICM" + rng.bytes(16))


NO_FINDING = 14  # the real class ids: 0-13 abnormalities, 14 "No finding" (a 1 0 0 1 1 box)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Boxes per image (70% "No finding"), and predictions with jittered boxes and a No-finding guess."""
    rows_t, rows_p = [], []
    for _ in range(size.test_rows):
        if rng.random() < 0.7:
            rows_t.append(f"{NO_FINDING} 1 0 0 1 1")
            rows_p.append(
                f"{NO_FINDING} {rng.random():.3f} 0 0 1 1 3 {rng.random() / 3:.3f} 700 800 1200 1300"
            )
            continue
        k = rng.integers(1, 6)
        cls = rng.integers(0, NO_FINDING, k)
        xy = rng.uniform(0, 2000, (k, 2))
        wh = rng.uniform(50, 600, (k, 2))
        rows_t.append(
            " ".join(
                f"{c} 1 {x:.0f} {y:.0f} {x + a:.0f} {y + b:.0f}"
                for c, (x, y), (a, b) in zip(cls, xy, wh, strict=True)
            )
        )
        rows_p.append(
            " ".join(
                f"{c} {rng.random():.3f} {x + rng.normal(0, 20):.0f} {y:.0f} {x + a:.0f} {y + b:.0f}"
                for c, (x, y), (a, b) in zip(cls, xy, wh, strict=True)
            )
            + f" {NO_FINDING} {rng.random():.3f} 0 0 1 1"
        )
    row_ids = ids("img", size.test_rows)
    answers = pd.DataFrame({"image_id": row_ids, "PredictionString": rows_t})
    submission = pd.DataFrame({"image_id": row_ids, "PredictionString": rows_p})
    return GradingInputs(answers, submission)
