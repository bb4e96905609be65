"""iwildcam-2019-fgvc6: v1 holds out whole camera locations of Kaggle's train.csv.

``train_test_split(train["location"].unique(), test_size=0.1, random_state=8)`` picks the test locations
(the seed was chosen so that test holds about 44% of the images); rows keep train.csv's order on each side.
Public: train.csv, test.csv (without category_id), sample_submission.csv (Id, Category 0),
train_images.zip and test_images.zip (each image follows its row). Private: test.csv (the full held-out
rows) and answers.csv (Id, Category).
"""

import shutil
import zipfile
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build public/ and private/ from ``raw`` as v1 does (see the module docstring)."""
    rows = pd.read_csv(raw / "train.csv")
    _, test_locations = train_test_split(
        rows["location"].unique(), test_size=comp.split.test_fraction, random_state=comp.split.seed
    )
    in_test = rows["location"].isin(test_locations)
    train, test = rows[~in_test], rows[in_test]
    write_csv(train, public / "train.csv")
    write_csv(test.drop(columns=["category_id"]), public / "test.csv")
    write_csv(test, private / "test.csv")
    answers = pd.DataFrame({"Id": test["id"], "Category": test["category_id"]})
    write_csv(answers, private / comp.submission.answers)
    write_csv(answers.assign(Category=0), public / "sample_submission.csv")
    _copy_images(raw / "train_images.zip", train["file_name"], public / "train_images.zip")
    _copy_images(raw / "train_images.zip", test["file_name"], public / "test_images.zip")


def _copy_images(source: Path, names: pd.Series, archive: Path) -> None:
    """Copy the named JPEGs between zips, members sorted and dated 1980-01-01 so the bytes reproduce."""
    with zipfile.ZipFile(source) as src, zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as out:
        for name in sorted(names):
            info = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            with src.open(name) as reader, out.open(info, "w") as writer:
                shutil.copyfileobj(reader, writer, 1 << 20)
