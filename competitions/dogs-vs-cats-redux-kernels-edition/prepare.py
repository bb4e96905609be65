"""dogs-vs-cats-redux-kernels-edition: v1 splits Kaggle's sorted train images (TTS 0.1, seed 0).

Kaggle's test images are discarded. New train images are renamed {cat|dog}.{k}.jpg and new test images
{k}.jpg (k = 1, 2, ... in split order); public holds both folders and their zips (train.zip, test.zip) and
sample_submission.csv (label 0.5); private/answers.csv has id and label (1 for dog, 0 for cat).
"""

import shutil
import tempfile
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data.archives import extract_zip, write_zip
from mlebench.spec.declarations import Competition


def _split(images: list[Path], comp: Competition) -> tuple[list[Path], list[Path]]:
    size = comp.split.test_fraction if comp.split.test_size is None else comp.split.test_size
    return train_test_split(images, test_size=size, random_state=comp.split.seed)


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split the train images, rename them, zip both folders and write the answers and the sample."""
    with tempfile.TemporaryDirectory() as tmp:
        extract_zip(raw / "train.zip", Path(tmp))
        train, test = _split(sorted((Path(tmp) / "train").glob("*.jpg")), comp)
        (public / "train").mkdir()
        (public / "test").mkdir()
        for k, image in enumerate(train, start=1):
            shutil.copyfile(image, public / "train" / f"{image.name.split('.')[0]}.{k}.jpg")
        for k, image in enumerate(test, start=1):
            shutil.copyfile(image, public / "test" / f"{k}.jpg")
        labels = [int(image.name.startswith("dog")) for image in test]
    for folder in ("train", "test"):
        write_zip(sorted((public / folder).iterdir()), public, public / f"{folder}.zip")
    ids = range(1, len(labels) + 1)
    pd.DataFrame({"id": ids, "label": labels}).to_csv(private / "answers.csv", index=False)
    pd.DataFrame({"id": ids, "label": 0.5}).to_csv(public / "sample_submission.csv", index=False)
