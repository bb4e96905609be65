"""A small stand-in for Kaggle's siim-isic-melanoma-classification download.

train.csv/test.csv, 16 train TFRecord files of tf.train.Example records (image, image_name, label-encoded
metadata, diagnosis and target), DICOM stubs under train/ and test/, and JPEGs under jpeg/train/ and
jpeg/test/. Files 00 and 06 hold 2,071 records each, as in the real download (v1's prepare reads its test
images from the files named train00-2071.tfrec and train06-2071.tfrec); the others hold 14.
"""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, binary
from authoring.kaggle_standin import image_bytes
from mlebench.data.tfrecord import bytes_feature, encode_example, int64_feature, write_records
from mlebench_spec.declarations import Competition, RealSize

N_FILES, PER_FILE, REAL_PER_FILE = 16, 14, 2071
COUNTS = [REAL_PER_FILE if k in (0, 6) else PER_FILE for k in range(N_FILES)]
METADATA_SITE = "anatom_site_general_challenge"
SITES = ["torso", "lower extremity", "upper extremity", "head/neck", ""]


def _dicom(name: str) -> bytes:
    return b"\0" * 128 + b"DICM" + name.encode()


def _metadata(rng: np.random.Generator, names: list[str]) -> pd.DataFrame:
    n = len(names)
    return pd.DataFrame(
        {
            "image_name": names,
            "patient_id": [f"IP_{i:07d}" for i in rng.integers(0, 60, size=n)],
            "sex": rng.choice(["male", "female"], size=n),
            "age_approx": rng.choice([30.0, 45.0, 60.0, 75.0], size=n),
            "anatom_site_general_challenge": rng.choice(SITES, size=n),
        }
    )


def _write_images(dest: Path, split: str, names: list[str], rng: np.random.Generator) -> dict[str, bytes]:
    (dest / split).mkdir(exist_ok=True)
    (dest / "jpeg" / split).mkdir(parents=True, exist_ok=True)
    jpegs = {}
    for name in names:
        jpegs[name] = image_bytes(rng)
        (dest / "jpeg" / split / f"{name}.jpg").write_bytes(jpegs[name])
        (dest / split / f"{name}.dcm").write_bytes(_dicom(name))
    return jpegs


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, all randomness from ``rng``."""
    numbers = rng.choice(9_999_999, size=sum(COUNTS) + 30, replace=False)
    names = [f"ISIC_{i:07d}" for i in numbers]
    train_names, test_names = names[: sum(COUNTS)], names[sum(COUNTS) :]
    train = _metadata(rng, train_names)
    train["target"] = (rng.random(len(train)) < 0.3).astype(int)
    train["diagnosis"] = np.where(train["target"] == 1, "melanoma", "nevus")
    train["benign_malignant"] = np.where(train["target"] == 1, "malignant", "benign")
    columns = list(train.columns[:5]) + ["diagnosis", "benign_malignant", "target"]
    train[columns].to_csv(dest / "train.csv", index=False)
    test = _metadata(rng, test_names)
    test.to_csv(dest / "test.csv", index=False)
    test[["image_name"]].assign(target=0).to_csv(dest / "sample_submission.csv", index=False)
    jpegs = _write_images(dest, "train", train_names, rng)
    _write_images(dest, "test", test_names, rng)
    (dest / "tfrecords").mkdir()
    rows = train.to_dict("records")
    starts = np.cumsum([0, *COUNTS])
    for k in range(N_FILES):
        chunk = rows[starts[k] : starts[k + 1]]
        records = [
            encode_example(
                {
                    "image": bytes_feature(jpegs[r["image_name"]]),
                    "image_name": bytes_feature(r["image_name"].encode()),
                    "patient_id": int64_feature(int(r["patient_id"][3:])),
                    "sex": int64_feature(int(r["sex"] == "male")),
                    "age_approx": int64_feature(int(r["age_approx"])),
                    "anatom_site_general_challenge": int64_feature(SITES.index(r[METADATA_SITE])),
                    "diagnosis": int64_feature(int(r["diagnosis"] == "melanoma")),
                    "target": int64_feature(int(r["target"])),
                }
            )
            for r in chunk
        ]
        write_records(dest / "tfrecords" / f"train{k:02d}-{len(chunk)}.tfrec", records)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 answers, noisy scores."""
    return binary(comp, size.test_rows, rng)
