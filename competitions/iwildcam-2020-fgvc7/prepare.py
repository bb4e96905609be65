"""iwildcam-2020-fgvc7: v1 re-splits Kaggle's training images by camera location.

1. ``train_test_split(unique locations, test_size=0.22, random_state=0)``, the locations in order of
   first appearance in the train json's images.
2. While test images / (all train images + test images) < 0.22, the last train location moves to test;
   then, while that ratio is > 0.22, the last test location moves back.

Public: iwildcam2020_train_annotations.json (train images and their annotations, Kaggle's categories and
info), iwildcam2020_test_information.json (test images, with categories and info of Kaggle's test json),
the megadetector results verbatim, train/ and test/ images, sample_submission.csv (one row per test image,
Category drawn with ``np.random.seed(0); randint(0, 676)``). Private: answers.csv, one row per annotation.
"""

import json
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition

TEST_SHARE = 0.22
N_CATEGORIES = 676
SAMPLE_SEED = 0  # v1 calls np.random.seed(0), whose global generator is RandomState(0)
MEGADETECTOR = "iwildcam2020_megadetector_results.json"


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build public/ and private/ from ``raw`` as v1 does (see the module docstring)."""
    source = json.loads((raw / "iwildcam2020_train_annotations.json").read_text())
    kaggle_test = json.loads((raw / "iwildcam2020_test_information.json").read_text())
    images = source["images"]
    test_locations = _test_locations(images, comp.split.seed)
    train_images = [img for img in images if img["location"] not in test_locations]
    test_images = [img for img in images if img["location"] in test_locations]
    test_ids = {img["id"] for img in test_images}
    train_json = {
        **source,
        "annotations": [a for a in source["annotations"] if a["image_id"] not in test_ids],
        "images": train_images,
    }
    test_json = {"images": test_images, "categories": kaggle_test["categories"], "info": kaggle_test["info"]}
    _write_json(train_json, public / "iwildcam2020_train_annotations.json")
    _write_json(test_json, public / "iwildcam2020_test_information.json")
    shutil.copyfile(raw / MEGADETECTOR, public / MEGADETECTOR)
    _copy_images(raw / "train", train_images, public / "train")
    _copy_images(raw / "train", test_images, public / "test")
    answers = [(a["image_id"], a["category_id"]) for a in source["annotations"] if a["image_id"] in test_ids]
    write_csv(pd.DataFrame(answers, columns=["Id", "Category"]), private / comp.submission.answers)
    guesses = np.random.RandomState(SAMPLE_SEED).randint(0, N_CATEGORIES, size=len(test_images))
    sample = pd.DataFrame({"Id": [img["id"] for img in test_images], "Category": guesses})
    write_csv(sample, public / "sample_submission.csv")


def _test_locations(images: list[dict], seed: int) -> set[int]:
    locations = list(pd.unique(pd.Series([img["location"] for img in images])))
    train, test = (
        list(side) for side in train_test_split(locations, test_size=TEST_SHARE, random_state=seed)
    )
    per_location = pd.Series([img["location"] for img in images]).value_counts()

    def ratio() -> float:
        n_test = int(per_location[test].sum())
        return n_test / (len(images) + n_test)

    while ratio() < TEST_SHARE:
        test.append(train.pop())
    while ratio() > TEST_SHARE:
        train.append(test.pop())
    return set(test)


def _write_json(obj: object, path: Path) -> None:
    with path.open("w") as out:
        json.dump(obj, out)


def _copy_images(source: Path, images: list[dict], dest: Path) -> None:
    dest.mkdir()
    for img in images:
        shutil.copyfile(source / img["file_name"], dest / img["file_name"])
