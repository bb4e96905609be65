"""A small stand-in for Kaggle's herbarium-2020-fgvc7 download.

A COCO-like nybg2020/train/metadata.json (latin-1) and tiny JPEGs.

Category sizes cover every branch of v1's per-category rule (1, 2-4, and 5 or more images).
"""

import io
import json
from pathlib import Path

import numpy as np
from PIL import Image

ROOT = "nybg2020/train"
SIZES = [1] * 5 + [2, 3, 4] * 4 + list(range(5, 13)) * 3


def _jpeg(rng: np.random.Generator) -> bytes:
    buffer = io.BytesIO()
    Image.fromarray(rng.integers(0, 256, size=(8, 8, 3), dtype=np.uint8)).save(buffer, format="JPEG")
    return buffer.getvalue()


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the stand-in download into ``dest``, all randomness from ``rng``."""
    train = dest / ROOT
    images, annotations = [], []
    categories = [
        {"family": f"Family{c % 7}", "genus": f"Genus{c % 13}", "id": c, "name": f"Genus{c % 13} species{c}"}
        for c in range(len(SIZES))
    ]
    items = [(c, k) for c, n in enumerate(SIZES) for k in range(n)]
    order = rng.permutation(len(items))
    image_ids = rng.choice(10**6, size=len(items), replace=False)
    for position, index in enumerate(order):
        category, _ = items[index]
        image_id = int(image_ids[position])
        name = f"images/{category // 100:03d}/{category % 100:02d}/{image_id}.jpg"
        (train / name).parent.mkdir(parents=True, exist_ok=True)
        (train / name).write_bytes(_jpeg(rng))
        images.append({"file_name": name, "height": 8, "id": image_id, "license": 0, "width": 8})
        annotations.append(
            {"category_id": category, "id": image_id, "image_id": image_id, "region_id": int(category % 5)}
        )
    metadata = {
        "annotations": annotations,
        "categories": categories,
        "images": images,
        "info": {"contributor": "fixture", "date_created": "2020-01-01", "version": "1.0", "year": 2020},
        "licenses": [{"id": 0, "name": "Public Domain Dedication", "url": "https://example.org/"}],
        "regions": [{"id": r, "name": f"Region {r}"} for r in range(5)],
    }
    (train / "metadata.json").write_text(json.dumps(metadata, ensure_ascii=False), encoding="latin-1")
