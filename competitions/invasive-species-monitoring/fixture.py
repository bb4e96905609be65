"""A small stand-in for Kaggle's invasive-species-monitoring download: 7z archives, zipped CSVs.

train.7z and test.7z hold JPEGs under train/ and test/, written LZMA2-compressed (as 7-Zip does) with the
folder's pure-Python 7z writer; train_labels.csv.zip and sample_submission.csv.zip hold the CSVs.
"""

import importlib.util
import io
import zipfile
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

_spec = importlib.util.spec_from_file_location("invasive_sevenzip", Path(__file__).with_name("sevenzip.py"))
sevenzip = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sevenzip)


def _jpeg(rng: np.random.Generator) -> bytes:
    buf = io.BytesIO()
    Image.fromarray(rng.integers(0, 256, size=(12, 16, 3), dtype=np.uint8)).save(buf, format="JPEG")
    return buf.getvalue()


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
        with sevenzip.Writer(dest / f"{folder}.7z", compress=True) as archive:
            for name in range(1, count + 1):
                archive.add(f"{folder}/{name}.jpg", _jpeg(rng))
