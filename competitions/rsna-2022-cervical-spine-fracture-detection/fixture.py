"""A small stand-in for Kaggle's RSNA 2022 cervical spine download.

train.csv (one row per study), train_bounding_boxes.csv (boxes of some studies), segmentations/<UID>.nii
(some studies, partly the same ones) and train_images/<UID>/<slice>.dcm.
"""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, assemble, single, units
from authoring.synthetic import text
from mlebench_spec.declarations import Competition, RealSize

TARGETS = ["patient_overall", "C1", "C2", "C3", "C4", "C5", "C6", "C7"]


def _dicom(rng: np.random.Generator) -> bytes:
    """Return DICOM-looking bytes: a 128-byte preamble, the DICM magic, a few bytes (never parsed)."""
    return b"\0" * 128 + b"DICM" + rng.integers(0, 256, size=32, dtype=np.uint8).tobytes()


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small synthetic download into the empty folder ``dest``."""
    n = 60
    uids = [f"1.2.826.0.1.3680043.{u}" for u in rng.choice(32768, size=n, replace=False)]
    vertebrae = (rng.random(size=(n, 7)) < 0.2).astype(int)
    frame = pd.DataFrame(vertebrae, columns=TARGETS[1:])
    frame.insert(0, "patient_overall", vertebrae.max(axis=1))
    frame.insert(0, "StudyInstanceUID", uids)
    frame.to_csv(dest / "train.csv", index=False)
    boxed, segmented = uids[:14], uids[10:18]  # 4 studies have both
    boxes = pd.DataFrame(
        {
            "StudyInstanceUID": np.repeat(boxed, 2),
            "x": rng.uniform(100, 300, size=28).round(1),
            "y": rng.uniform(100, 300, size=28).round(1),
            "width": rng.uniform(10, 80, size=28).round(1),
            "height": rng.uniform(10, 80, size=28).round(1),
            "slice_number": rng.integers(1, 300, size=28),
        }
    )
    boxes.to_csv(dest / "train_bounding_boxes.csv", index=False)
    (dest / "segmentations").mkdir()
    for uid in segmented:
        (dest / "segmentations" / f"{uid}.nii").write_bytes(b"\x5c\x01\0\0" + bytes(60))
    for uid in uids:
        (dest / "train_images" / uid).mkdir(parents=True)
        for slice_number in (1, 2):
            (dest / "train_images" / uid / f"{slice_number}.dcm").write_bytes(_dicom(rng))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Eight rows per study (patient_overall, C1-C7), 0/1 fractures, noisy probabilities."""
    studies = units(size.test_rows, len(TARGETS))
    row_ids = np.array(
        [f"1.2.826.0.1.3680043.{s}_{t}" for s in range(studies) for t in TARGETS], dtype=object
    )
    truth = (rng.random(len(row_ids)) < 0.15).astype(int)
    pred = np.clip(0.5 * truth + 0.5 * rng.random(len(row_ids)), 0, 1)
    return assemble(comp, row_ids, *single(comp, truth.astype(str), text(pred)), rng)
