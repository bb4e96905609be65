"""A small stand-in for Kaggle's SIIM-FISABIO-RSNA COVID-19 download.

train_study_level.csv (one-hot study class), train_image_level.csv (boxes and label strings) and
train/<study>/<series>/<image>.dcm.
"""

from pathlib import Path

import numpy as np
import pandas as pd

CLASSES = ["Negative for Pneumonia", "Typical Appearance", "Indeterminate Appearance", "Atypical Appearance"]


def _dicom(rng: np.random.Generator) -> bytes:
    """Return DICOM-looking bytes: a 128-byte preamble, the DICM magic, a few bytes (never parsed)."""
    return b"\0" * 128 + b"DICM" + rng.integers(0, 256, size=32, dtype=np.uint8).tobytes()


def _hex(rng: np.random.Generator) -> str:
    return f"{rng.integers(0, 16**12):012x}"


def _image_row(rng: np.random.Generator, study: str, negative: bool) -> dict:
    if negative:
        return {"boxes": np.nan, "label": "none 1 0 0 1 1"}
    boxes, labels = [], []
    for _ in range(rng.integers(1, 3)):
        x, y = rng.uniform(100, 1500, size=2).round(5)
        w, h = rng.uniform(200, 900, size=2).round(5)
        boxes.append(f"{{'x': {x}, 'y': {y}, 'width': {w}, 'height': {h}}}")
        labels.append(f"opacity 1 {x} {y} {round(x + w, 5)} {round(y + h, 5)}")
    return {"boxes": "[" + ", ".join(boxes) + "]", "label": " ".join(labels)}


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small synthetic download into the empty folder ``dest``."""
    studies, images = [], []
    for _ in range(260):
        study, series, kind = _hex(rng), _hex(rng), rng.choice(4, p=[0.3, 0.4, 0.2, 0.1])
        studies.append({"id": f"{study}_study", **{c: int(k == kind) for k, c in enumerate(CLASSES)}})
        for _ in range(rng.integers(1, 3)):
            image = _hex(rng)
            row = _image_row(rng, study, negative=kind == 0 or rng.random() < 0.2)
            images.append({"id": f"{image}_image", **row, "StudyInstanceUID": study})
            (dest / "train" / study / series).mkdir(parents=True, exist_ok=True)
            (dest / "train" / study / series / f"{image}.dcm").write_bytes(_dicom(rng))
    pd.DataFrame(studies).to_csv(dest / "train_study_level.csv", index=False)
    pd.DataFrame(images).to_csv(dest / "train_image_level.csv", index=False)
