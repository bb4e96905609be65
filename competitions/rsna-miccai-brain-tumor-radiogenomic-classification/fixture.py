"""A small stand-in for Kaggle's RSNA-MICCAI download: train_labels.csv and train/<id>/<sequence>/*.dcm."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, binary
from mlebench_spec.declarations import Competition, RealSize

SEQUENCES = ["FLAIR", "T1w", "T1wCE", "T2w"]


def _dicom(rng: np.random.Generator) -> bytes:
    """Return DICOM-looking bytes: a 128-byte preamble, the DICM magic, a few bytes (never parsed)."""
    return b"\0" * 128 + b"DICM" + rng.integers(0, 256, size=32, dtype=np.uint8).tobytes()


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small synthetic download into the empty folder ``dest``."""
    ids = np.sort(rng.choice(1000, size=260, replace=False))
    labels = pd.DataFrame(
        {"BraTS21ID": [f"{i:05d}" for i in ids], "MGMT_value": rng.integers(0, 2, size=260)}
    )
    labels.to_csv(dest / "train_labels.csv", index=False)
    for patient in labels["BraTS21ID"]:
        for sequence in SEQUENCES:
            folder = dest / "train" / patient / sequence
            folder.mkdir(parents=True)
            (folder / "Image-1.dcm").write_bytes(_dicom(rng))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 answers, noisy scores."""
    return binary(comp, size.test_rows, rng)
