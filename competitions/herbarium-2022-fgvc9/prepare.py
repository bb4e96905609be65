"""herbarium-2022-fgvc9: v1's per-category split of Kaggle's training images.

v1 groups the images of train_metadata.json by the category of their annotation (in order of first
appearance) and holds out 20% of each with train_test_split(test_size=0.2, random_state=0); both sides
must be non-empty. Train images of a category are renumbered {cat:05d}__{k:03d} (k from 1) under
{cat//100:03d}/{cat%100:02d}/. The test images of all categories are shuffled with random.Random(0); the
i-th gets id str(i) and file {i//1000:03d}/test-{i:06d}.jpg. test_metadata.json is the list of test
image records.
"""

from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data import coco_meta
from mlebench.data.prepare import link_or_copy, write_csv
from mlebench_spec.declarations import Competition
from mlebench_spec.errors import DataError


def _split_category(group: list, comp: Competition) -> tuple[list, list]:
    kept, held_out = train_test_split(group, test_size=comp.split.test_fraction, random_state=comp.split.seed)
    if not kept or not held_out:
        raise DataError(f"category {group[0][1]['category_id']}: one side of its split is empty")
    return kept, held_out


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw`` (see the module docstring)."""
    metadata = coco_meta.load(raw / "train_metadata.json")
    pairs = coco_meta.joined_pairs(metadata, image_key="image_id")
    train, test = coco_meta.split_by_category(
        pairs, lambda group: _split_category(group, comp), comp.split.seed
    )
    train_images, train_annotations, counts = [], [], {}
    for image, annotation in train:
        cat = annotation["category_id"]
        counts[cat] = counts.get(cat, 0) + 1
        image_id = f"{cat:05d}__{counts[cat]:03d}"
        name = f"{cat // 100:03d}/{cat % 100:02d}/{image_id}.jpg"
        train_images.append({**image, "image_id": image_id, "file_name": name})
        train_annotations.append({**annotation, "image_id": image_id})
        link_or_copy(raw / "train_images" / image["file_name"], public / "train_images" / name)
    test_images, rows = [], []
    for i, (image, annotation) in enumerate(test):
        name = f"{i // 1000:03d}/test-{i:06d}.jpg"
        test_images.append({"file_name": name, "image_id": str(i), "license": image["license"]})
        rows.append({"Id": str(i), "Predicted": annotation["category_id"]})
        link_or_copy(raw / "train_images" / image["file_name"], public / "test_images" / name)
    train_meta = {**metadata, "images": train_images, "annotations": train_annotations}
    coco_meta.write(public / "train_metadata.json", train_meta)
    coco_meta.write(public / "test_metadata.json", test_images)
    answers = pd.DataFrame(rows, columns=["Id", "Predicted"])
    write_csv(answers, private / comp.submission.answers)
    write_csv(answers[["Id"]].assign(Predicted=42), public / "sample_submission.csv")
