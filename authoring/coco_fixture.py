"""The stand-in train folder the herbarium 2020 and 2021 fixtures share (COCO-style metadata + tiny JPEGs)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from authoring.kaggle_standin import image_bytes


def write_fixture(train: Path, rng: np.random.Generator, sizes: list[int], group: str, encoding: str) -> None:
    """Write a herbarium-2020/2021-like stand-in: tiny JPEGs and ``train/metadata.json`` (in ``encoding``).

    Category ``c`` gets ``sizes[c]`` images, all shuffled, with distinct random ids, stored at
    ``images/{c//100:03d}/{c%100:02d}/<id>.jpg``. The metadata lists images and annotations entry by entry;
    each annotation carries ``<group>_id`` (``c % 5``) and the metadata a ``<group>s`` list of five.
    """
    categories = [
        {"family": f"Family{c % 7}", "genus": f"Genus{c % 13}", "id": c, "name": f"Genus{c % 13} species{c}"}
        for c in range(len(sizes))
    ]
    items = [c for c, n in enumerate(sizes) for _ in range(n)]
    order = rng.permutation(len(items))
    image_ids = rng.choice(10**6, size=len(items), replace=False)
    images, annotations = [], []
    for position, index in enumerate(order):
        category, image_id = items[index], int(image_ids[position])
        name = f"images/{category // 100:03d}/{category % 100:02d}/{image_id}.jpg"
        (train / name).parent.mkdir(parents=True, exist_ok=True)
        (train / name).write_bytes(image_bytes(rng))
        images.append({"file_name": name, "height": 8, "id": image_id, "license": 0, "width": 8})
        annotations.append(
            {"category_id": category, "id": image_id, "image_id": image_id, f"{group}_id": int(category % 5)}
        )
    metadata = {
        "annotations": annotations,
        "categories": categories,
        "images": images,
        "info": {"contributor": "fixture", "date_created": "2020-01-01", "version": "1.0", "year": 2020},
        "licenses": [{"id": 0, "name": "Public Domain Dedication", "url": "https://example.org/"}],
        f"{group}s": [{"id": r, "name": f"Region {r}"} for r in range(5)],
    }
    (train / "metadata.json").write_text(json.dumps(metadata, ensure_ascii=False), encoding=encoding)
