"""A small stand-in for Kaggle's herbarium-2022-fgvc9 download: train_metadata.json and tiny JPEGs.

Images are named {category:05d}__{k:03d} under train_images/{category//100:03d}/{category%100:02d}/, as in
the real download; every category has at least 2 images.
"""

import json
from pathlib import Path

import numpy as np

from authoring.grading_inputs import GradingInputs, labels
from authoring.kaggle_standin import image_bytes
from authoring.synthetic import numbered
from mlebench_spec.declarations import Competition, RealSize

SIZES = [2, 3, 4, 5, 6, 8, 10, 12] * 5


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the stand-in download into ``dest``, all randomness from ``rng``."""
    categories = [int(c) for c in np.sort(rng.choice(15000, size=len(SIZES), replace=False))]
    genus = {c: int(rng.integers(0, 20)) for c in categories}
    images, annotations = [], []
    for category, n in zip(categories, SIZES, strict=True):
        for k in range(1, n + 1):
            image_id = f"{category:05d}__{k:03d}"
            name = f"{category // 100:03d}/{category % 100:02d}/{image_id}.jpg"
            (dest / "train_images" / name).parent.mkdir(parents=True, exist_ok=True)
            (dest / "train_images" / name).write_bytes(image_bytes(rng))
            images.append({"image_id": image_id, "file_name": name, "license": 0})
            annotations.append(
                {
                    "genus_id": genus[category],
                    "institution_id": int(rng.integers(0, 5)),
                    "category_id": category,
                    "image_id": image_id,
                }
            )
    metadata = {
        "annotations": annotations,
        "images": images,
        "categories": [
            {
                "category_id": c,
                "scientificName": f"Genus{genus[c]} species{c}",
                "family": f"Family{genus[c] % 4}",
                "genus": f"Genus{genus[c]}",
                "species": f"species{c}",
                "authors": "L.",
            }
            for c in categories
        ],
        "genera": [{"genus_id": g, "genus": f"Genus{g}"} for g in range(20)],
        "distances": [{"genus_id_x": 0, "genus_id_y": g, "distance": float(g)} for g in range(1, 20)],
        "institutions": [{"institution_id": i, "collectionCode": f"INST{i}"} for i in range(5)],
        "license": [{"id": 0, "name": "CC BY-NC 4.0", "url": "https://example.org/"}],
    }
    (dest / "train_metadata.json").write_text(json.dumps(metadata))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: one of ``size.classes`` numbered species per image, 60% right."""
    return labels(comp, size.test_rows, numbered(size.classes), rng, p_right=0.6)
