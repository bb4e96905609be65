"""kuzushiji-recognition: v1 holds out 10% of train.csv's pages (TTS 0.1, seed 0).

Public: train.csv, unicode_translation.csv, train_images.zip and test_images.zip (each page's image goes
with its row), sample_submission.csv (every page "U+003F 1 1 U+FF2F 2 2"). Private: test.csv (image_id,
labels as "code x y w h ..." boxes) and gold_submission.csv (each box as the point "code x+1 y+1").
"""

import shutil
import zipfile
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition

SAMPLE_LABELS = "U+003F 1 1 U+FF2F 2 2"


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build public/ and private/ from ``raw`` as v1 does (see the module docstring)."""
    train, test = split_frame(pd.read_csv(raw / "train.csv"), comp.split)
    write_csv(train, public / "train.csv")
    shutil.copyfile(raw / "unicode_translation.csv", public / "unicode_translation.csv")
    write_csv(test.assign(labels=SAMPLE_LABELS), public / "sample_submission.csv")
    write_csv(test, private / comp.submission.answers)
    write_csv(
        test.assign(labels=test["labels"].map(_points, na_action="ignore")), private / "gold_submission.csv"
    )
    _copy_images(raw / "train_images.zip", train["image_id"], public / "train_images.zip")
    _copy_images(raw / "train_images.zip", test["image_id"], public / "test_images.zip")


def _points(boxes: str) -> str:
    tokens = boxes.split()
    return " ".join(
        f"{code} {int(x) + 1} {int(y) + 1}"
        for code, x, y in zip(tokens[0::5], tokens[1::5], tokens[2::5], strict=True)
    )


def _copy_images(source: Path, image_ids: pd.Series, archive: Path) -> None:
    """Copy the pages' JPEGs between zips, members sorted and dated 1980-01-01 so the bytes reproduce."""
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        for name in sorted(f"{image_id}.jpg" for image_id in image_ids):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with src.open(name) as reader, out.open(info, "w") as writer:
                shutil.copyfileobj(reader, writer, 1 << 20)
