"""herbarium-2021-fgvc8: v1's per-category split of Kaggle's training images.

v1 reads train/metadata.json, pairs its `images` and `annotations` lists entry by entry and groups the
pairs by category (in order of first appearance). A category with one image stays in train; with 2-4
images its last max(1, int(0.2 n)) go to test; with 5 or more, train_test_split(test_size=0.2,
random_state=0) picks its test images. The test pairs of all categories are shuffled with
random.Random(0); the k-th gets id str(k) and file images/{k//1000:03d}/{k}.jpg under test/. Train
images keep their ids and paths. test/metadata.json keeps only images, info and licenses.
"""

from pathlib import Path

import pandas as pd

from mlebench.data import coco_meta
from mlebench.data.prepare import link_or_copy, write_csv
from mlebench_spec.declarations import Competition

TRAIN, TEST = "train", "test"


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw`` (see the module docstring)."""
    metadata = coco_meta.load(raw / TRAIN / "metadata.json", encoding="utf-8")
    fraction, seed = comp.split.test_fraction, comp.split.seed
    train, test = coco_meta.split_by_category(
        coco_meta.zipped_pairs(metadata), lambda group: coco_meta.few_image_split(group, fraction, seed), seed
    )
    for image, _ in train:
        link_or_copy(raw / TRAIN / image["file_name"], public / TRAIN / image["file_name"])
    test_images = [
        {**image, "file_name": f"images/{k // 1000:03d}/{k}.jpg", "id": str(k)}
        for k, (image, _) in enumerate(test)
    ]
    for (image, _), new in zip(test, test_images, strict=True):
        link_or_copy(raw / TRAIN / image["file_name"], public / TEST / new["file_name"])
    coco_meta.write(public / TRAIN / "metadata.json", coco_meta.subset(metadata, train))
    coco_meta.write(public / TEST / "metadata.json", coco_meta.test_metadata(metadata, test_images))
    answers = pd.DataFrame(
        {"Id": [i["id"] for i in test_images], "Predicted": [a["category_id"] for _, a in test]}
    )
    write_csv(answers, private / comp.submission.answers)
    write_csv(answers[["Id"]].assign(Predicted=0), public / "sample_submission.csv")
