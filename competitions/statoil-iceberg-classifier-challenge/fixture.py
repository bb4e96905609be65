"""A small stand-in for Kaggle's statoil-iceberg-classifier-challenge download: three .7z archives.

train.json.7z and test.json.7z hold data/processed/{train,test}.json (lists of records), written with
py7zr from files staged with a fixed mtime. The radar bands are 6 x 6 here instead of Kaggle's 75 x 75.
"""

import json
import os
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd
import py7zr

from authoring.grading_inputs import GradingInputs, binary
from mlebench_spec.declarations import Competition, RealSize

SIDE = 6


def _records(rng: np.random.Generator, n: int) -> list[dict]:
    records = []
    for _ in range(n):
        angle = "na" if rng.random() < 0.05 else round(float(rng.uniform(30, 46)), 4)
        records.append(
            {
                "id": f"{int(rng.integers(16**8)):08x}",
                "band_1": rng.normal(-20, 5, size=SIDE * SIDE).round(5).tolist(),
                "band_2": rng.normal(-26, 4, size=SIDE * SIDE).round(5).tolist(),
                "inc_angle": angle,
            }
        )
    return records


def _write(dest: Path, name: str, data: str) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / name
        path.write_text(data)
        os.chmod(path, 0o644)
        os.utime(path, (946_684_800, 946_684_800))
        with py7zr.SevenZipFile(dest / f"{name}.7z", "w") as archive:
            archive.write(path, f"data/processed/{name}")


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, all randomness from ``rng``."""
    train = _records(rng, 150)
    for record in train:
        record["is_iceberg"] = int(rng.integers(0, 2))
    test = _records(rng, 30)
    _write(dest, "train.json", json.dumps(train))
    _write(dest, "test.json", json.dumps(test))
    sample = pd.DataFrame({"id": [r["id"] for r in test], "is_iceberg": 0.5})
    _write(dest, "sample_submission.csv", sample.to_csv(index=False))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 answers, noisy scores."""
    return binary(comp, size.test_rows, rng)
