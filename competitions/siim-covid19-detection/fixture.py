"""A small stand-in for Kaggle's SIIM-FISABIO-RSNA COVID-19 download.

train_study_level.csv (one-hot study class), train_image_level.csv (boxes and label strings) and
train/<study>/<series>/<image>.dcm.
"""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs
from mlebench_spec.declarations import Competition, RealSize

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


STUDY_SHARE = 606 / 1241  # of the real test rows, the studies' (the rest are images)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Study rows (one class) and image rows (opacity boxes, or none); predictions score every class."""
    studies = max(1, round(size.test_rows * STUDY_SHARE))
    images = size.test_rows - studies
    labels = np.array([c.split()[0].lower() for c in CLASSES])  # negative, typical, indeterminate, atypical
    rows_t, rows_p, row_ids = [], [], []
    for s in range(studies):
        row_ids.append(f"{s:012x}_study")
        rows_t.append(f"{labels[rng.integers(0, 4)]} 1 0 0 1 1")
        rows_p.append(" ".join(f"{c} {rng.random():.4f} 0 0 1 1" for c in labels))
    for i in range(images):
        row_ids.append(f"{i:012x}_image")
        n = rng.integers(0, 4)
        if n == 0:
            rows_t.append("none 1 0 0 1 1")
            rows_p.append(f"none {rng.random():.3f} 0 0 1 1 opacity {rng.random():.3f} 100 100 400 500")
            continue
        boxes = [
            (x, y, x + rng.uniform(100, 600), y + rng.uniform(100, 900))
            for x, y in rng.uniform(0, 2000, (n, 2))
        ]
        rows_t.append(" ".join(f"opacity 1 {a:.1f} {b:.1f} {c:.1f} {d:.1f}" for a, b, c, d in boxes))
        rows_p.append(
            " ".join(
                f"opacity {rng.random():.3f} {a + rng.normal(0, 30):.1f} {b:.1f} {c:.1f} {d:.1f}"
                for a, b, c, d in boxes + boxes[:1]
            )
            + f" none {rng.random():.3f} 0 0 1 1"
        )
    answers = pd.DataFrame({"id": row_ids, "PredictionString": rows_t})
    submission = pd.DataFrame({"id": row_ids, "PredictionString": rows_p})
    return GradingInputs(answers, submission)
