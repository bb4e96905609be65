"""siim-isic-melanoma-classification: MLE-bench v1 makes Kaggle's TFRecord files 00 and 06 the test set.

The image names found in tfrecords/train00-*.tfrec and train06-*.tfrec become test; every other train.csv
row stays in train (train.csv order). The TFRecord files are copied renamed, train{NN}-{count} and
test{NN}-{count} numbered in sorted order; DICOM and JPEG files follow their image. Public test.csv keeps
the five metadata columns; the answers are image_name and target.
"""

import shutil
import struct
from pathlib import Path

import pandas as pd

from mlebench.declarations import Competition
from mlebench.prepare import write_csv

TEST_FILES = ("train00-", "train06-")
METADATA = ["image_name", "patient_id", "sex", "age_approx", "anatom_site_general_challenge"]


def _varint(data: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[pos]
        value |= (byte & 0x7F) << shift
        pos, shift = pos + 1, shift + 7
        if byte < 0x80:
            return value, pos


def _fields(data: bytes) -> list[tuple[int, bytes | int]]:
    """Top-level (field number, value) pairs of a protobuf message (varint and length-delimited only)."""
    out, pos = [], 0
    while pos < len(data):
        key, pos = _varint(data, pos)
        if key & 7 == 0:
            value, pos = _varint(data, pos)
        elif key & 7 == 2:
            size, pos = _varint(data, pos)
            value, pos = data[pos : pos + size], pos + size
        else:
            raise ValueError(f"unsupported protobuf wire type {key & 7}")
        out.append((key >> 3, value))
    return out


def _image_name(example: bytes) -> str:
    (features,) = [v for n, v in _fields(example) if n == 1]
    for _, entry in _fields(features):
        parts = dict(_fields(entry))
        if parts[1] == b"image_name":
            bytes_list = dict(_fields(parts[2]))[1]
            return dict(_fields(bytes_list))[1].decode()
    raise ValueError("a TFRecord example has no image_name")


def _tfrecord_names(path: Path) -> list[str]:
    names, data, pos = [], path.read_bytes(), 0
    while pos < len(data):
        (length,) = struct.unpack_from("<Q", data, pos)
        names.append(_image_name(data[pos + 12 : pos + 12 + length]))
        pos += 16 + length
    return names


def _copy_records(files: list[Path], prefix: str, dest: Path) -> None:
    dest.mkdir(exist_ok=True)
    for number, path in enumerate(files):
        count = path.stem.split("-")[-1]
        shutil.copyfile(path, dest / f"{prefix}{number:02d}-{count}.tfrec")


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
    test_names = {name for path in test_records for name in _tfrecord_names(path)}
    frame = pd.read_csv(raw / "train.csv")
    in_test = frame["image_name"].isin(test_names)
    train, test = frame[~in_test], frame[in_test]
    write_csv(train, public / "train.csv")
    write_csv(test[METADATA], public / "test.csv")
    write_csv(test[["image_name", "target"]], private / comp.submission.answers)
    write_csv(test[["image_name"]].assign(target=0), public / "sample_submission.csv")
    _copy_records([p for p in records if p not in test_records], "train", public / "tfrecords")
    _copy_records(test_records, "test", public / "tfrecords")
    _copy_images(train["image_name"], raw, public, "train")
    _copy_images(test["image_name"], raw, public, "test")
