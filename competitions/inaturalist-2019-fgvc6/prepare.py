"""inaturalist-2019-fgvc6: v1's per-category split of Kaggle's train2019.json.

v1 groups the train images by the category of their annotation (in order of first appearance). A category
with one image stays in train; with 2-4 images its last max(1, int(0.12 n)) go to test; with 5 or more,
train_test_split(test_size=0.12, random_state=0) picks its test images. The test images of all categories
are shuffled with random.Random(0), keep their ids and are renamed test2019/<basename>. Public:
train2019.json (train only), val2019.json (verbatim; its images are not shipped), test2019.json (images,
info, licenses), train_val2019.tar.gz and test2019.tar.gz (plain tars despite the suffix, holding the
contents of v1's train_val2019/ and test2019/ folders: members Birds/10/<file>.jpg and <file>.jpg, with no
top folder) and kaggle_sample_submission.csv, whose every row holds one value,
random.Random(42).randint(0, 1009) (v1 fixes the range to the real data's 1010 categories, whatever the
metadata lists). Private: answers.csv (id, predicted = category_id). The raw image archive is streamed,
never unpacked.
"""

import random
import shutil
import tarfile
from pathlib import Path

import pandas as pd

from mlebench.data import coco_meta
from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition
from mlebench_spec.errors import DataError

V1_CATEGORIES = 1010


def _write_tars(archive: Path, renames: dict[str, tuple[str, str]], public: Path) -> None:
    """Stream ``archive`` into public/<tar>: each listed member goes to its tar under its new name."""
    outputs = {name: tarfile.open(public / name, "w") for name in ("train_val2019.tar.gz", "test2019.tar.gz")}
    try:
        with tarfile.open(archive, "r|*") as source:
            for member in source:
                if not member.isfile() or member.name not in renames:
                    continue
                out_name, new_name = renames[member.name]
                info = tarfile.TarInfo(new_name)
                info.size, info.mode = member.size, 0o644
                outputs[out_name].addfile(info, source.extractfile(member))
    finally:
        for tar in outputs.values():
            tar.close()


def _in_folder(file_name: str) -> str:
    """Return ``file_name`` without its top folder, its name in that folder's tar (``Birds/1/a.jpg``)."""
    _, _, rest = file_name.partition("/")
    if not rest:
        raise DataError(f"inaturalist-2019-fgvc6: image file_name {file_name!r} is not inside a folder")
    return rest


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw`` (see the module docstring)."""
    metadata = coco_meta.load(raw / "train2019.json")
    fraction, seed = comp.split.test_fraction, comp.split.seed
    train, test = coco_meta.split_by_category(
        coco_meta.joined_pairs(metadata), lambda group: coco_meta.few_image_split(group, fraction, seed), seed
    )
    test_images = [{**image, "file_name": "test2019/" + Path(image["file_name"]).name} for image, _ in test]
    coco_meta.write(public / "train2019.json", coco_meta.subset(metadata, train))
    coco_meta.write(public / "test2019.json", coco_meta.test_metadata(metadata, test_images))
    shutil.copyfile(raw / "val2019.json", public / "val2019.json")
    renames = {
        image["file_name"]: ("train_val2019.tar.gz", _in_folder(image["file_name"])) for image, _ in train
    }
    renames |= {
        image["file_name"]: ("test2019.tar.gz", _in_folder(new["file_name"]))
        for (image, _), new in zip(test, test_images, strict=True)
    }
    _write_tars(raw / "train_val2019.tar.gz", renames, public)
    answers = pd.DataFrame(
        {"id": [i["id"] for i, _ in test], "predicted": [a["category_id"] for _, a in test]}
    )
    write_csv(answers, private / comp.submission.answers)
    sample = answers[["id"]].assign(predicted=random.Random(42).randint(0, V1_CATEGORIES - 1))
    write_csv(sample, public / "kaggle_sample_submission.csv")
