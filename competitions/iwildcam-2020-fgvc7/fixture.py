"""A small stand-in for Kaggle's iwildcam-2020-fgvc7 download: the COCO-style JSON files and train/ JPEGs."""

import io
import json
import uuid
from pathlib import Path

import numpy as np
from PIL import Image

from authoring.grading_inputs import GradingInputs, labels
from authoring.synthetic import numbered
from mlebench_spec.declarations import Competition, RealSize

INFO = {"version": "1.0", "description": "iWildCam 2020", "year": 2020, "contributor": "stand-in"}
CATEGORIES = [{"count": 10, "id": i, "name": f"species {i}"} for i in range(20)]


def _images(rng: np.random.Generator, n: int) -> list[dict]:
    locations = rng.choice(np.arange(0, 550), size=40, replace=False)
    images = []
    for _ in range(n):
        image_id = str(uuid.UUID(bytes=rng.bytes(16), version=4))
        month, day, hour = (int(v) for v in rng.integers(1, 24, size=3))
        images.append(
            {
                "seq_num_frames": 1,
                "location": int(rng.choice(locations)),
                "datetime": f"2013-{month % 12 + 1:02d}-{day:02d} {hour:02d}:44:19.000",
                "id": image_id,
                "frame_num": 1,
                "seq_id": str(uuid.UUID(bytes=rng.bytes(16), version=4)),
                "width": 1920,
                "height": 1080,
                "file_name": f"{image_id}.jpg",
            }
        )
    return images


def _write_json(obj: object, path: Path) -> None:
    path.write_text(json.dumps(obj))


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small stand-in download into ``dest``."""
    train = _images(rng, 300)
    test = _images(rng, 30)
    annotations = [
        {"id": str(uuid.UUID(bytes=rng.bytes(16), version=4)), "image_id": img["id"], "category_id": int(c)}
        for img, c in zip(train, rng.integers(0, 20, size=len(train)), strict=True)
    ]
    _write_json(
        {"annotations": annotations, "images": train, "categories": CATEGORIES, "info": INFO},
        dest / "iwildcam2020_train_annotations.json",
    )
    _write_json(
        {"images": test, "categories": CATEGORIES, "info": {**INFO, "description": "iWildCam 2020 test"}},
        dest / "iwildcam2020_test_information.json",
    )
    detections = [
        {
            "detections": [{"category": "1", "bbox": [0.1, 0.2, 0.3, 0.4], "conf": 0.9}],
            "id": img["id"],
            "max_detection_conf": 0.9,
        }
        for img in train + test
    ]
    _write_json(
        {
            "info": {"detector": "megadetector_v3"},
            "images": detections,
            "detection_categories": {"1": "animal"},
        },
        dest / "iwildcam2020_megadetector_results.json",
    )
    for folder, images in (("train", train), ("test", test)):
        (dest / folder).mkdir()
        for img in images:
            buf = io.BytesIO()
            Image.fromarray(rng.integers(0, 256, size=(9, 16), dtype=np.uint8)).save(buf, format="JPEG")
            (dest / folder / img["file_name"]).write_bytes(buf.getvalue())


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: one of ``size.classes`` numbered categories per image."""
    return labels(comp, size.test_rows, numbered(size.classes), rng)
