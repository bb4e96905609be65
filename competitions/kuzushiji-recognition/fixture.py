"""A small stand-in for Kaggle's kuzushiji-recognition download: page images in zips, boxes in train.csv."""

import zipfile
from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, assemble, single
from authoring.kaggle_standin import image_bytes
from authoring.synthetic import ids
from mlebench_spec.declarations import Competition, RealSize

CODES = ["U+306F", "U+304B", "U+3068", "U+306E", "U+4E00", "U+5B50", "U+308A", "U+3057"]


def _labels(rng: np.random.Generator) -> str:
    """One to five boxes: every page has characters, as v1's prepare needs of each held-out page."""
    n = int(rng.integers(1, 6))
    boxes = [
        f"{c} {x} {y} {w} {h}"
        for c, x, y, w, h in zip(rng.choice(CODES, n), *rng.integers(5, 900, (4, n)), strict=True)
    ]
    return " ".join(boxes)


def _zip_images(path: Path, image_ids: list[str], rng: np.random.Generator) -> None:
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for image_id in image_ids:
            zf.writestr(f"{image_id}.jpg", image_bytes(rng, (16, 24)))


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small stand-in download into ``dest``."""
    books = ["100241706", "200003076", "brsk00000", "umgy00000"]
    ids = [f"{rng.choice(books)}_{i:05d}_{rng.integers(1, 3)}" for i in range(300)]
    train_ids, test_ids = ids[:260], ids[260:]
    pd.DataFrame({"image_id": train_ids, "labels": [_labels(rng) for _ in train_ids]}).to_csv(
        dest / "train.csv", index=False
    )
    pd.DataFrame({"Unicode": CODES, "char": [chr(int(c[2:], 16)) for c in CODES]}).to_csv(
        dest / "unicode_translation.csv", index=False
    )
    pd.DataFrame({"image_id": test_ids, "labels": "U+003F 1 1 U+FF2F 2 2"}).to_csv(
        dest / "sample_submission.csv", index=False
    )
    _zip_images(dest / "train_images.zip", train_ids, rng)
    _zip_images(dest / "test_images.zip", test_ids, rng)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Kind ``points``: pages of ~300 ``label x y w h`` boxes; predictions are jittered box centres."""
    n = size.test_rows
    truth, pred = [], []
    for count in rng.integers(0, 600, n):
        codes = rng.integers(0x3040, 0x9FFF, count)
        xy, wh = rng.uniform(0, 3000, (count, 2)), rng.uniform(30, 120, (count, 2))
        truth.append(
            " ".join(
                f"U+{c:04X} {x:.0f} {y:.0f} {w:.0f} {h:.0f}"
                for c, (x, y), (w, h) in zip(codes, xy, wh, strict=True)
            )
        )
        centre = xy + wh / 2 + rng.normal(0, 10, (count, 2))
        pred.append(" ".join(f"U+{c:04X} {x:.0f} {y:.0f}" for c, (x, y) in zip(codes, centre, strict=True)))
    pair = single(comp, np.array(truth, dtype=object), np.array(pred, dtype=object))
    return assemble(comp, ids("page", n), *pair, rng)
