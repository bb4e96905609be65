"""google-research-identify-contrails-reduce-global-warming: v1 carves a test set out of train.

train_test_split over the records of train_metadata.json, test_size = the number of validation records,
random_state = 0. public: train/<record_id>/ (bands and masks), test/<record_id>/ (the nine bands only),
train_metadata.json (new train records), validation/ and validation_metadata.json (as-is, with masks),
sample_submission.csv (the answers' columns, encoded_pixels replaced by "1 3 10 5" or "-", one
``random.choice`` per row from Python's generator seeded with the split seed, as v1 draws them; the grader
ignores its height and width). private: answers.csv with record_id, the column-major 1-based run-length
encoding of human_pixel_masks ("-" when empty), and the height and width of band_08.
"""

import json
import random
import shutil
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench_spec.declarations import Competition

BANDS = [f"band_{b:02d}.npy" for b in range(8, 17)]


def rle_encode(mask: np.ndarray) -> str:
    """Encode a 2-D 0/1 mask as "start length ..." over column-major pixels numbered from 1; "-" if empty."""
    pixels = np.concatenate([[0], mask.flatten(order="F"), [0]])
    edges = np.flatnonzero(pixels[1:] != pixels[:-1]) + 1
    edges[1::2] -= edges[::2]
    return " ".join(map(str, edges)) if len(edges) else "-"


def _answer(folder: Path) -> dict:
    height, width = np.load(folder / "band_08.npy", mmap_mode="r").shape[:2]
    mask = np.load(folder / "human_pixel_masks.npy")[:, :, 0]
    return {"record_id": folder.name, "encoded_pixels": rle_encode(mask), "height": height, "width": width}


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split the train records, publish test bands only, and encode the test masks as answers."""
    records = json.loads((raw / "train_metadata.json").read_text())
    n_test = len(json.loads((raw / "validation_metadata.json").read_text()))
    size = comp.split.test_size or n_test
    train, test = train_test_split(records, test_size=size, random_state=comp.split.seed)
    for record in train:
        shutil.copytree(raw / "train" / record["record_id"], public / "train" / record["record_id"])
    for record in test:
        (public / "test" / record["record_id"]).mkdir(parents=True)
        for band in BANDS:
            shutil.copyfile(
                raw / "train" / record["record_id"] / band, public / "test" / record["record_id"] / band
            )
    (public / "train_metadata.json").write_text(json.dumps(train))
    shutil.copyfile(raw / "validation_metadata.json", public / "validation_metadata.json")
    shutil.copytree(raw / "validation", public / "validation")
    answers = pd.DataFrame([_answer(raw / "train" / record["record_id"]) for record in test])
    answers.to_csv(private / "answers.csv", index=False)
    draw = random.Random(comp.split.seed)
    sample = answers.assign(encoded_pixels=[draw.choice(["1 3 10 5", "-"]) for _ in range(len(answers))])
    sample.to_csv(public / "sample_submission.csv", index=False)
