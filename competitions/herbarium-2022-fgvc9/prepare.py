"""herbarium-2022-fgvc9: v1's per-category split of Kaggle's training images.

v1 groups the images of train_metadata.json by the category of their annotation (in order of first
appearance) and holds out 20% of each with train_test_split(test_size=0.2, random_state=0); both sides
must be non-empty. Train images of a category are renumbered {cat:05d}__{k:03d} (k from 1) under
{cat//100:03d}/{cat%100:02d}/. The test images of all categories are shuffled with random.Random(0); the
i-th gets id str(i) and file {i//1000:03d}/test-{i:06d}.jpg. test_metadata.json is the list of test
image records.
"""

import json
import random
import shutil
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.declarations import Competition
from mlebench.errors import DataError
from mlebench.prepare import write_csv


def _split(metadata: dict, comp: Competition) -> tuple[list, list]:
    images = {image["image_id"]: image for image in metadata["images"]}
    by_category: dict[int, list] = {}
    for annotation in metadata["annotations"]:
        by_category.setdefault(annotation["category_id"], []).append(
            (images[annotation["image_id"]], annotation)
        )
    train, test = [], []
    for category, pairs in by_category.items():
        kept, held_out = train_test_split(
            pairs, test_size=comp.split.test_fraction, random_state=comp.split.seed
        )
        if not kept or not held_out:
            raise DataError(f"category {category}: one side of its split is empty")
        train += kept
        test += held_out
    random.Random(comp.split.seed).shuffle(test)
    return train, test


def _copy(src: Path, dest: Path) -> None:
    dest.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(src, dest)


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw`` (see the module docstring)."""
    metadata = json.loads((raw / "train_metadata.json").read_text(encoding="utf-8"))
    train, test = _split(metadata, comp)
    train_images, train_annotations, counts = [], [], {}
    for image, annotation in train:
        cat = annotation["category_id"]
        counts[cat] = counts.get(cat, 0) + 1
        image_id = f"{cat:05d}__{counts[cat]:03d}"
        name = f"{cat // 100:03d}/{cat % 100:02d}/{image_id}.jpg"
        train_images.append({**image, "image_id": image_id, "file_name": name})
        train_annotations.append({**annotation, "image_id": image_id})
        _copy(raw / "train_images" / image["file_name"], public / "train_images" / name)
    test_images, rows = [], []
    for i, (image, annotation) in enumerate(test):
        name = f"{i // 1000:03d}/test-{i:06d}.jpg"
        test_images.append({"file_name": name, "image_id": str(i), "license": image["license"]})
        rows.append({"Id": str(i), "Predicted": annotation["category_id"]})
        _copy(raw / "train_images" / image["file_name"], public / "test_images" / name)
    train_meta = {**metadata, "images": train_images, "annotations": train_annotations}
    (public / "train_metadata.json").write_text(json.dumps(train_meta), encoding="utf-8")
    (public / "test_metadata.json").write_text(json.dumps(test_images), encoding="utf-8")
    answers = pd.DataFrame(rows, columns=["Id", "Predicted"])
    write_csv(answers, private / comp.submission.answers)
    write_csv(answers[["Id"]].assign(Predicted=42), public / "sample_submission.csv")
