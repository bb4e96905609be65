"""A small stand-in for Kaggle's invasive-species-monitoring download: 7z archives, zipped CSVs.

train.7z and test.7z hold JPEGs under train/ and test/, written with py7zr's default LZMA2 filter (as 7-Zip
compresses by default) from files staged with a fixed mtime, so the same seed gives the same bytes;
train_labels.csv.zip and sample_submission.csv.zip hold the CSVs.
"""

import os
import tempfile
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
import py7zr

from authoring.grading_inputs import GradingInputs, binary
from authoring.kaggle_standin import image_bytes
from mlebench_spec.declarations import Competition, RealSize


def _write_7z(archive: Path, members: dict[str, bytes]) -> None:
    with tempfile.TemporaryDirectory() as tmp, py7zr.SevenZipFile(archive, "w") as out:
        for arcname, data in members.items():
            staged = Path(tmp) / arcname
            staged.parent.mkdir(parents=True, exist_ok=True)
            staged.write_bytes(data)
            os.chmod(staged, 0o644)
            os.utime(staged, (946_684_800, 946_684_800))
            out.write(staged, arcname)


def _zip_csv(frame: pd.DataFrame, dest: Path, name: str) -> None:
    with zipfile.ZipFile(dest / f"{name}.zip", "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr(name, frame.to_csv(index=False))


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small stand-in download into ``dest``."""
    n_train, n_test = 150, 30
    _zip_csv(
        pd.DataFrame({"name": range(1, n_train + 1), "invasive": rng.integers(0, 2, n_train)}),
        dest,
        "train_labels.csv",
    )
    _zip_csv(pd.DataFrame({"name": range(1, n_test + 1), "invasive": 0.5}), dest, "sample_submission.csv")
    for folder, count in (("train", n_train), ("test", n_test)):
        _write_7z(
            dest / f"{folder}.7z",
            {f"{folder}/{name}.jpg": image_bytes(rng, (16, 12)) for name in range(1, count + 1)},
        )


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 answers, noisy scores."""
    return binary(comp, size.test_rows, rng)
