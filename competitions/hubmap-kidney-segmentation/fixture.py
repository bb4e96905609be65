"""A small stand-in for Kaggle's hubmap-kidney-segmentation download.

train.csv (id, encoding), HuBMAP-20-dataset_information.csv (also listing Kaggle's test images, as the
real one does), and per training image train/{id}.tiff, {id}.json and {id}-anatomical-structure.json.
The real download has 15 training images, and so has the fixture: v1's prepare splits exactly 12 to train
and 3 to test (and checks that none is left over), so it runs on no other count.
"""

import json
from pathlib import Path

import numpy as np
import pandas as pd
from PIL import Image

from authoring.grading_inputs import GradingInputs, assemble, single
from authoring.synthetic import blob_runs
from mlebench_spec.declarations import Competition, RealSize

N_TRAIN, N_KAGGLE_TEST = 15, 5


def _rle(mask: np.ndarray) -> str:
    """Column-major run-length encoding with 1-based starts."""
    flat = np.concatenate([[0], mask.flatten(order="F").astype(np.int8), [0]])
    edges = np.flatnonzero(np.diff(flat)) + 1
    starts, ends = edges[::2], edges[1::2]
    return " ".join(f"{s} {e - s}" for s, e in zip(starts, ends, strict=True))


def _polygons(rng: np.random.Generator, label: str) -> list[dict]:
    return [
        {
            "type": "Feature",
            "id": "PathAnnotationObject",
            "geometry": {"type": "Polygon", "coordinates": [rng.integers(0, 32, size=(5, 2)).tolist()]},
            "properties": {"classification": {"name": label, "colorRGB": -3140401}, "isLocked": False},
        }
    ]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the stand-in download into ``dest``, all randomness from ``rng``."""
    ids = [rng.bytes(5).hex()[:9] for _ in range(N_TRAIN + N_KAGGLE_TEST)]
    heights = rng.integers(16, 32, size=len(ids))
    widths = rng.integers(16, 32, size=len(ids))
    (dest / "train").mkdir()
    encodings = []
    for image_id, h, w in zip(ids[:N_TRAIN], heights[:N_TRAIN], widths[:N_TRAIN], strict=True):
        mask = np.zeros((h, w), dtype=bool)
        top, left = rng.integers(0, h // 2), rng.integers(0, w // 2)
        mask[top : top + rng.integers(2, 8), left : left + rng.integers(2, 8)] = True
        encodings.append(_rle(mask))
        pixels = rng.integers(0, 256, size=(h, w, 3), dtype=np.uint8)
        Image.fromarray(pixels).save(dest / "train" / f"{image_id}.tiff", format="TIFF")
        (dest / "train" / f"{image_id}.json").write_text(json.dumps(_polygons(rng, "glomerulus")))
        structure = json.dumps(_polygons(rng, "Cortex"))
        (dest / "train" / f"{image_id}-anatomical-structure.json").write_text(structure)
    pd.DataFrame({"id": ids[:N_TRAIN], "encoding": encodings}).to_csv(dest / "train.csv", index=False)
    pd.DataFrame(
        {
            "image_file": [f"{i}.tiff" for i in ids],
            "width_pixels": widths,
            "height_pixels": heights,
            "anatomical_structures_segmention_file": [f"{i}-anatomical-structure.json" for i in ids],
            "glomerulus_segmentation_file": [f"{i}.json" for i in ids],
            "patient_number": rng.integers(60000, 70000, size=len(ids)),
            "race": rng.choice(["White", "Black or African American"], size=len(ids)),
            "sex": rng.choice(["Male", "Female"], size=len(ids)),
            "age": rng.integers(30, 80, size=len(ids)),
        }
    ).to_csv(dest / "HuBMAP-20-dataset_information.csv", index=False)


REAL_TEST_IDS = ["aaa6a05cc", "cb2d976f4", "e79de561c"]  # one per declared test image


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """About 600 glomeruli per whole-slide image, as RLE; predictions shifted by a few pixels."""
    sizes = size.test_images
    truth = [blob_runs(h, w, 600) for h, w in sizes]
    pred = [blob_runs(h, w, 600, shift=int(rng.integers(-20, 20))) for h, w in sizes]
    return assemble(
        comp,
        np.array(REAL_TEST_IDS[: len(sizes)], dtype=object),
        *single(comp, np.array(truth, dtype=object), np.array(pred, dtype=object)),
        rng,
        {
            "height_pixels": np.array([str(h) for h, _ in sizes]),
            "width_pixels": np.array([str(w) for _, w in sizes]),
        },
    )
