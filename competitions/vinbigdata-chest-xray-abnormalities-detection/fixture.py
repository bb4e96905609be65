"""A small stand-in for Kaggle's vinbigdata-chest-xray-abnormalities-detection download.

train.csv has one row per box and radiologist (class 14, No finding, has empty boxes); train/*.dicom
are tiny DICOM-shaped files (preamble, DICM magic, a few bytes), which prepare only copies.
"""

from pathlib import Path

import numpy as np
import pandas as pd

_CLASSES = ["Aortic enlargement", "Atelectasis", "Calcification", "Cardiomegaly", "Consolidation"]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, every random choice drawn from ``rng``."""
    images = [rng.bytes(16).hex() for _ in range(300)]
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
