"""A small stand-in for Kaggle's RSNA mammography download: train.csv, train_images/<patient>/<image>.dcm."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, binary
from mlebench_spec.declarations import Competition, RealSize


def _dicom(rng: np.random.Generator) -> bytes:
    """Return DICOM-looking bytes: a 128-byte preamble, the DICM magic, a few bytes (never parsed)."""
    return b"\0" * 128 + b"DICM" + rng.integers(0, 256, size=32, dtype=np.uint8).tobytes()


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small synthetic download into the empty folder ``dest``."""
    rows = []
    for patient in rng.choice(65536, size=250, replace=False):
        site, age, implant = rng.integers(1, 3), rng.integers(40, 90), int(rng.random() < 0.03)
        machine, density = rng.choice([21, 29, 48, 49, 93, 170]), rng.choice(["A", "B", "C", "D", ""])
        for laterality in ("L", "R"):
            cancer = int(rng.random() < 0.15)
            for view in rng.choice(["CC", "MLO", "ML"], size=rng.integers(1, 3), replace=False):
                rows.append(
                    {
                        "site_id": site,
                        "patient_id": patient,
                        "image_id": rng.integers(10**6, 2**31),
                        "laterality": laterality,
                        "view": view,
                        "age": float(age),
                        "cancer": cancer,
                        "biopsy": cancer or int(rng.random() < 0.05),
                        "invasive": cancer and int(rng.random() < 0.7),
                        "BIRADS": float(rng.choice([0, 1, 2])) if site == 1 else np.nan,
                        "implant": implant,
                        "density": density,
                        "machine_id": machine,
                        "difficult_negative_case": not cancer and rng.random() < 0.1,
                    }
                )
    frame = pd.DataFrame(rows)
    frame.to_csv(dest / "train.csv", index=False)
    for patient, image in zip(frame["patient_id"], frame["image_id"], strict=True):
        (dest / "train_images" / str(patient)).mkdir(parents=True, exist_ok=True)
        (dest / "train_images" / str(patient) / f"{image}.dcm").write_bytes(_dicom(rng))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 answers, noisy scores."""
    return binary(comp, size.test_rows, rng)
