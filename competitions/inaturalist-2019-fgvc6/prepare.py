"""inaturalist-2019-fgvc6: v1's per-category split of Kaggle's train2019.json.

v1 groups the train images by the category of their annotation (in order of first appearance). A category
with one image stays in train; with 2-4 images its last max(1, int(0.12 n)) go to test; with 5 or more,
train_test_split(test_size=0.12, random_state=0) picks its test images. The test images of all categories
are shuffled with random.Random(0), keep their ids and are renamed test2019/<basename>. Public:
train2019.json (train only), val2019.json (verbatim; its images are not shipped), test2019.json (images,
info, licenses), train_val2019.tar.gz and test2019.tar.gz (plain tars despite the suffix) and
kaggle_sample_submission.csv, whose every row holds one value from random.Random(42). Private: answers.csv
(id, predicted = category_id). The raw image archive is streamed, never unpacked.
"""

import json
import random
import shutil
import tarfile
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.declarations import Competition
from mlebench.prepare import write_csv


def _split_category(pairs: list, comp: Competition) -> tuple[list, list]:
    n = len(pairs)
    if n == 1:
        return pairs, []
    if n < 5:
        cut = n - max(1, int(comp.split.test_fraction * n))
        return pairs[:cut], pairs[cut:]
    return train_test_split(pairs, test_size=comp.split.test_fraction, random_state=comp.split.seed)


def _split(metadata: dict, comp: Competition) -> tuple[list, list]:
    images = {image["id"]: image for image in metadata["images"]}
    by_category: dict[int, list] = {}
    for annotation in metadata["annotations"]:
        by_category.setdefault(annotation["category_id"], []).append(
            (images[annotation["image_id"]], annotation)
        )
    train, test = [], []
    for pairs in by_category.values():
        kept, held_out = _split_category(pairs, comp)
        train += kept
        test += held_out
    random.Random(comp.split.seed).shuffle(test)
    return train, test


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


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw`` (see the module docstring)."""
    metadata = json.loads((raw / "train2019.json").read_text(encoding="utf-8"))
    train, test = _split(metadata, comp)
    test_images = [{**image, "file_name": "test2019/" + Path(image["file_name"]).name} for image, _ in test]
    train_meta = {**metadata, "images": [i for i, _ in train], "annotations": [a for _, a in train]}
    test_meta = {"images": test_images, "info": metadata["info"], "licenses": metadata["licenses"]}
    (public / "train2019.json").write_text(json.dumps(train_meta), encoding="utf-8")
    (public / "test2019.json").write_text(json.dumps(test_meta), encoding="utf-8")
    shutil.copyfile(raw / "val2019.json", public / "val2019.json")
    renames = {image["file_name"]: ("train_val2019.tar.gz", image["file_name"]) for image, _ in train}
    renames |= {
        image["file_name"]: ("test2019.tar.gz", new["file_name"])
        for (image, _), new in zip(test, test_images, strict=True)
    }
    _write_tars(raw / "train_val2019.tar.gz", renames, public)
    answers = pd.DataFrame(
        {"id": [i["id"] for i, _ in test], "predicted": [a["category_id"] for _, a in test]}
    )
    write_csv(answers, private / comp.submission.answers)
    n_categories = len(metadata["categories"])
    sample = answers[["id"]].assign(predicted=random.Random(42).randint(0, n_categories - 1))
    write_csv(sample, public / "kaggle_sample_submission.csv")
