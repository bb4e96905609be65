"""A small stand-in for Kaggle's osic-pulmonary-fibrosis-progression download: train.csv and CT folders."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, units
from authoring.synthetic import text
from mlebench_spec.declarations import Competition, RealSize

DICOM = b"\x00" * 128 + b"DICM" + b"\x02\x00\x10\x00UI\x14\x001.2.840.10008.1.2.1\x00"


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write 60 patients with 5-9 visits each, and two DICOM slices per patient."""
    rows = []
    for p in range(60):
        patient = f"ID00{rng.integers(10**9, 10**10)}{p:02d}{rng.integers(10**9, 10**10)}"[:25]
        age, sex = int(rng.integers(50, 88)), str(rng.choice(["Male", "Female"]))
        smoking = str(rng.choice(["Ex-smoker", "Never smoked", "Currently smokes"]))
        base = float(rng.uniform(2200, 3600))
        weeks = np.sort(rng.choice(np.arange(-5, 130), size=int(rng.integers(5, 10)), replace=False))
        for week in weeks:
            fvc = int(base - 4 * week + rng.normal(0, 150))
            rows.append((patient, int(week), fvc, round(fvc / 30.0, 6), age, sex, smoking))
        folder = dest / "train" / patient
        folder.mkdir(parents=True)
        for k in (1, 2):
            (folder / f"{k}.dcm").write_bytes(DICOM + rng.bytes(16))
    columns = ["Patient", "Weeks", "FVC", "Percent", "Age", "Sex", "SmokingStatus"]
    pd.DataFrame(rows, columns=columns).to_csv(dest / "train.csv", index=False)


REAL_WEEKS = np.arange(-12, 134)  # the weeks every test patient is predicted for


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Answers (FVC where measured, about 6% of weeks) and a submission of FVC with a confidence."""
    patients = units(size.test_rows, len(REAL_WEEKS))
    row_ids = np.array([f"ID{p:017d}_{w}" for p in range(patients) for w in REAL_WEEKS], dtype=object)
    fvc = rng.normal(2700, 600, len(row_ids))
    measured = rng.random(len(row_ids)) < 0.06
    answers = pd.DataFrame(
        {"Patient_Week": row_ids, "FVC": np.where(measured, text(fvc, 0), ""), "Confidence": "100"}
    )
    submission = pd.DataFrame(
        {
            "Patient_Week": row_ids,
            "FVC": text(fvc + rng.normal(0, 200, len(row_ids)), 1),
            "Confidence": text(rng.uniform(50, 400, len(row_ids)), 1),
        }
    )
    return GradingInputs(answers, submission)
