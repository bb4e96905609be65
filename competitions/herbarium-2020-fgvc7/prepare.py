"""herbarium-2020-fgvc7: v1's per-category split of Kaggle's training images.

v1 reads nybg2020/train/metadata.json (as latin-1), pairs its `images` and `annotations` lists entry by
entry and groups the pairs by category (in order of first appearance). A category with one image stays
in train; with 2-4 images its last max(1, int(0.2 n)) go to test; with 5 or more,
train_test_split(test_size=0.2, random_state=0) picks its test images. The test pairs of all categories
are shuffled with random.Random(0); the k-th gets id str(k) and file images/{k//1000:03d}/{k}.jpg under
nybg2020/test/. Train images keep their ids and paths. nybg2020/test/metadata.json keeps only images,
info and licenses.
"""

import json
import random
import shutil
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.declarations import Competition
from mlebench.prepare import write_csv

TRAIN, TEST = "nybg2020/train", "nybg2020/test"


def _split_category(pairs: list, comp: Competition) -> tuple[list, list]:
    n = len(pairs)
    if n == 1:
        return pairs, []
    if n < 5:
        cut = n - max(1, int(comp.split.test_fraction * n))
        return pairs[:cut], pairs[cut:]
    return train_test_split(pairs, test_size=comp.split.test_fraction, random_state=comp.split.seed)


def _split(metadata: dict, comp: Competition) -> tuple[list, list]:
    by_category: dict[int, list] = {}
    for image, annotation in zip(metadata["images"], metadata["annotations"], strict=True):
        by_category.setdefault(annotation["category_id"], []).append((image, annotation))
    train, test = [], []
    for pairs in by_category.values():
        kept, held_out = _split_category(pairs, comp)
        train += kept
        test += held_out
    random.Random(comp.split.seed).shuffle(test)
    return train, test


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw`` (see the module docstring)."""
    metadata = json.loads((raw / TRAIN / "metadata.json").read_text(encoding="latin-1"))
    train, test = _split(metadata, comp)
    train_meta = {**metadata, "images": [i for i, _ in train], "annotations": [a for _, a in train]}
    for image in train_meta["images"]:
        target = public / TRAIN / image["file_name"]
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(raw / TRAIN / image["file_name"], target)
    test_images, rows = [], []
    for k, (image, annotation) in enumerate(test):
        name = f"images/{k // 1000:03d}/{k}.jpg"
        test_images.append({**image, "file_name": name, "id": str(k)})
        rows.append({"Id": str(k), "Predicted": annotation["category_id"]})
        (public / TEST / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(raw / TRAIN / image["file_name"], public / TEST / name)
    test_meta = {"images": test_images, "info": metadata["info"], "licenses": metadata["licenses"]}
    (public / TRAIN / "metadata.json").write_text(json.dumps(train_meta), encoding="utf-8")
    (public / TEST / "metadata.json").write_text(json.dumps(test_meta), encoding="utf-8")
    answers = pd.DataFrame(rows, columns=["Id", "Predicted"])
    write_csv(answers, private / comp.submission.answers)
    write_csv(answers[["Id"]].assign(Predicted=0), public / "sample_submission.csv")
