"""hubmap-kidney-segmentation: v1's split of Kaggle's 15 training images.

v1 holds out 3 of the rows of train.csv with train_test_split(train_size=12, test_size=3, random_state=0),
which on 15 rows is the same as test_size=3 alone. Each image's tiff and anatomical-structure json follow
it to public/train/ or public/test/; HuBMAP-20-dataset_information.csv keeps the rows of the training
images. The private files are v1's: test.csv (id, encoding, width_pixels, height_pixels), the answers, whose
`encoding` the grader reads as the submission's `predicted` (``submission.derived_columns``), and
gold_submission.csv (id, predicted).

Unlike v1, the held-out images' glomerulus polygons ({id}.json) are not published: they are the answers.
"""

import shutil
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition


def _copy_image(image_id: str, src: Path, dest: Path, *, with_polygons: bool) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    names = [f"{image_id}.tiff", f"{image_id}-anatomical-structure.json"]
    names += [f"{image_id}.json"] if with_polygons else []
    for name in names:
        shutil.copyfile(src / name, dest / name)


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw`` (see the module docstring)."""
    labels = pd.read_csv(raw / "train.csv")
    train, test = split_frame(labels, comp.split)
    info = pd.read_csv(raw / "HuBMAP-20-dataset_information.csv")
    image_ids = info["image_file"].str.removesuffix(".tiff")
    write_csv(train, public / "train.csv")
    write_csv(info[image_ids.isin(labels["id"])], public / "HuBMAP-20-dataset_information.csv")
    sizes = info.assign(id=image_ids)[["id", "width_pixels", "height_pixels"]]
    answers = test.merge(sizes, on="id", how="left")
    write_csv(answers, private / comp.submission.answers)
    write_csv(answers[["id"]].assign(predicted=answers["encoding"]), private / "gold_submission.csv")
    sample = test[["id"]].assign(predicted="")
    write_csv(sample, public / "sample_submission.csv")
    for image_id in train["id"]:
        _copy_image(image_id, raw / "train", public / "train", with_polygons=True)
    for image_id in test["id"]:
        _copy_image(image_id, raw / "train", public / "test", with_polygons=False)
    write_csv(sample, public / "test" / "sample_submission.csv")
