"""siim-isic-melanoma-classification: MLE-bench v1 makes Kaggle's TFRecord files 00 and 06 the test set.

The image names found in tfrecords/train00-*.tfrec and train06-*.tfrec become test; every other train.csv
row stays in train (train.csv order). The TFRecord files are published renamed, train{NN}-{count} and
test{NN}-{count} numbered in sorted order; DICOM and JPEG files follow their image. Public test.csv keeps
the five metadata columns; the answers are image_name and target.

Unlike v1, which copies the test TFRecord files byte for byte (so they keep each image's `target`
feature, its label, and `diagnosis`), each test record is rewritten without the features test.csv omits;
the split and answers are unchanged.
"""

import shutil
from collections.abc import Iterator
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.tfrecord import decode_example, encode_example, read_records, write_records
from mlebench_spec.declarations import Competition

TEST_FILES = ("train00-", "train06-")
METADATA = ["image_name", "patient_id", "sex", "age_approx", "anatom_site_general_challenge"]
LABEL_FEATURES = {"target", "diagnosis", "benign_malignant"}  # train.csv columns public test.csv omits


def _image_names(path: Path) -> list[str]:
    return [decode_example(record)["image_name"].values[0].decode() for record in read_records(path)]


def _unlabelled(path: Path) -> Iterator[bytes]:
    for record in read_records(path):
        yield encode_example({k: v for k, v in decode_example(record).items() if k not in LABEL_FEATURES})


def _publish_records(files: list[Path], prefix: str, dest: Path, *, drop_target: bool) -> None:
    dest.mkdir(exist_ok=True)
    for number, path in enumerate(files):
        count = path.stem.split("-")[-1]
        target = dest / f"{prefix}{number:02d}-{count}.tfrec"
        if drop_target:
            write_records(target, _unlabelled(path))
        else:
            shutil.copyfile(path, target)


def _copy_images(names: pd.Series, raw: Path, public: Path, split: str) -> None:
    (public / split).mkdir()
    (public / "jpeg" / split).mkdir(parents=True)
    for name in names:
        shutil.copyfile(raw / "train" / f"{name}.dcm", public / split / f"{name}.dcm")
        shutil.copyfile(raw / "jpeg" / "train" / f"{name}.jpg", public / "jpeg" / split / f"{name}.jpg")


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from ``raw`` as MLE-bench v1 does (see the module docstring)."""
    records = sorted((raw / "tfrecords").glob("train*.tfrec"))
    test_records = [p for p in records if p.name.startswith(TEST_FILES)]
    test_names = {name for path in test_records for name in _image_names(path)}
    frame = pd.read_csv(raw / "train.csv")
    in_test = frame["image_name"].isin(test_names)
    train, test = frame[~in_test], frame[in_test]
    write_csv(train, public / "train.csv")
    write_csv(test[METADATA], public / "test.csv")
    write_csv(test[["image_name", "target"]], private / comp.submission.answers)
    write_csv(test[["image_name"]].assign(target=0), public / "sample_submission.csv")
    train_records = [p for p in records if p not in test_records]
    _publish_records(train_records, "train", public / "tfrecords", drop_target=False)
    _publish_records(test_records, "test", public / "tfrecords", drop_target=True)
    _copy_images(train["image_name"], raw, public, "train")
    _copy_images(test["image_name"], raw, public, "test")
