"""A small stand-in for Kaggle's inaturalist-2019-fgvc6 download.

train2019.json and val2019.json (COCO-style), and train_val2019.tar.gz (gzip-compressed) holding the train
and val images at their file_name paths. Images are listed by category with consecutive ids, as in the
real metadata; category sizes cover every branch of v1's per-category rule.
"""

import io
import json
import tarfile
from pathlib import Path

import numpy as np

from authoring.grading_inputs import GradingInputs, assemble, single
from authoring.kaggle_standin import image_bytes
from authoring.synthetic import ids
from mlebench_spec.declarations import Competition, RealSize

SIZES = [1] * 4 + [2, 3, 4] * 5 + list(range(5, 16)) * 3
SUPERCATEGORIES = ["Plants", "Insects", "Birds", "Fungi"]


def _add(tar: tarfile.TarFile, name: str, data: bytes) -> None:
    info = tarfile.TarInfo(name)
    info.size = len(data)
    tar.addfile(info, io.BytesIO(data))


def _metadata(images: list, annotations: list, categories: list) -> dict:
    return {
        "info": {"year": 2019, "version": "1.0", "description": "iNaturalist 2019 (fixture)"},
        "licenses": [{"id": 1, "name": "Attribution-NonCommercial License", "url": "https://example.org/"}],
        "images": images,
        "annotations": annotations,
        "categories": categories,
    }


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the stand-in download into ``dest``, all randomness from ``rng``."""
    categories = [
        {"id": c, "name": f"Species {c}", "kingdom": SUPERCATEGORIES[c % 4], "family": f"Family{c % 9}"}
        for c in range(len(SIZES))
    ]
    splits = {"train": ([], []), "val": ([], [])}
    next_id = 0
    with tarfile.open(dest / "train_val2019.tar.gz", "w:gz") as tar:
        for split, sizes in (("train", SIZES), ("val", [1] * len(SIZES))):
            images, annotations = splits[split]
            for category, n in enumerate(sizes):
                for _ in range(n):
                    name = (
                        f"train_val2019/{SUPERCATEGORIES[category % 4]}/{category}/{rng.bytes(16).hex()}.jpg"
                    )
                    _add(tar, name, image_bytes(rng))
                    images.append(
                        {
                            "id": next_id,
                            "file_name": name,
                            "width": 8,
                            "height": 8,
                            "license": 1,
                            "rights_holder": "x",
                        }
                    )
                    annotations.append({"id": next_id, "image_id": next_id, "category_id": category})
                    next_id += 1
    for split, (images, annotations) in splits.items():
        (dest / f"{split}2019.json").write_text(json.dumps(_metadata(images, annotations, categories)))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """One of ``size.classes`` categories per image; five ranked guesses, the first 70% right."""
    n = size.test_rows
    truth = rng.integers(0, size.classes, n)
    guesses = rng.integers(0, size.classes, (n, 5))
    guesses[:, 0] = np.where(rng.random(n) < 0.7, truth, guesses[:, 0])
    pred = np.array([" ".join(map(str, g)) for g in guesses], dtype=object)
    return assemble(comp, ids("", n), *single(comp, truth.astype(str).astype(object), pred), rng)
