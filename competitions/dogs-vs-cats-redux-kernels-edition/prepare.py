"""dogs-vs-cats-redux-kernels-edition: v1 splits Kaggle's sorted train images (TTS 0.1, seed 0).

Kaggle's test images are discarded. New train images are renamed cat.{k}.jpg or dog.{k}.jpg, cats and
dogs each counted from 0 in split order (an image is a cat when its name holds "cat", else a dog); new test
images are {k}.jpg, k = 1, 2, ... in split order. Public holds both folders, their zips (train.zip and
test.zip, the images at the archive's root as in v1) and sample_submission.csv (label 0.5);
private/answers.csv has id and label (1 for dog, 0 for cat).
"""

import tempfile
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data.archives import extract_zip, write_zip
from mlebench.data.prepare import link_or_copy, progress
from mlebench_spec.declarations import Competition


def _split(images: list[Path], comp: Competition) -> tuple[list[Path], list[Path]]:
    size = comp.split.test_fraction if comp.split.test_size is None else comp.split.test_size
    return train_test_split(images, test_size=size, random_state=comp.split.seed)


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split the train images, rename them, zip both folders and write the answers and the sample.

    The images are extracted beside ``public`` and hard-linked into it (a copy where links fail): the same
    bytes as v1's copies, written once.
    """
    with tempfile.TemporaryDirectory(dir=public.parent) as tmp:
        extract_zip(raw / "train.zip", Path(tmp), progress_label="extracting train.zip", hashes=True)
        train, test = _split(sorted((Path(tmp) / "train").glob("*.jpg")), comp)
        (public / "train").mkdir()
        (public / "test").mkdir()
        counts = {"cat": 0, "dog": 0}
        for image in train:
            kind = "cat" if "cat" in image.name else "dog"
            link_or_copy(image, public / "train" / f"{kind}.{counts[kind]}.jpg")
            counts[kind] += 1
        for k, image in enumerate(test, start=1):
            link_or_copy(image, public / "test" / f"{k}.jpg")
        labels = [int("dog" in image.name) for image in test]
    for folder in progress(("train", "test"), desc="zipping", unit="folder"):
        write_zip(sorted((public / folder).iterdir()), public / folder, public / f"{folder}.zip")
    ids = range(1, len(labels) + 1)
    pd.DataFrame({"id": ids, "label": labels}).to_csv(private / "answers.csv", index=False)
    pd.DataFrame({"id": ids, "label": 0.5}).to_csv(public / "sample_submission.csv", index=False)
