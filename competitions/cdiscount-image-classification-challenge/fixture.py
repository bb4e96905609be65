"""A small stand-in for Kaggle's cdiscount download: train.bson and category_names.csv.

train.bson is a run of BSON documents {_id: int32, imgs: [{picture: <JPEG binary>}, ...], category_id:
int32}, written with the small BSON encoder below.
"""

import struct
from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, labels
from authoring.kaggle_standin import image_bytes
from authoring.synthetic import names
from mlebench_spec.declarations import Competition, RealSize


def _element(key: str, value) -> bytes:
    name = key.encode() + b"\x00"
    if isinstance(value, bytes):
        return b"\x05" + name + struct.pack("<i", len(value)) + b"\x00" + value
    if isinstance(value, list):
        return b"\x04" + name + encode({str(i): v for i, v in enumerate(value)})
    if isinstance(value, dict):
        return b"\x03" + name + encode(value)
    return b"\x10" + name + struct.pack("<i", value)


def encode(doc: dict) -> bytes:
    """One BSON document with int32, binary, array and embedded-document values."""
    body = b"".join(_element(k, v) for k, v in doc.items()) + b"\x00"
    return struct.pack("<i", len(body) + 4) + body


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``."""
    categories = [1000010653 + 17 * i for i in range(1, 7)]
    names = pd.DataFrame(
        {
            "category_id": categories,
            "category_level1": [f"LEVEL1 {i % 2}" for i in range(6)],
            "category_level2": [f"LEVEL2 {i % 3}" for i in range(6)],
            "category_level3": [f"LEVEL3 {i}" for i in range(6)],
        }
    )
    names.to_csv(dest / "category_names.csv", index=False)
    with (dest / "train.bson").open("wb") as out:
        for product in range(300):
            imgs = [{"picture": image_bytes(rng)} for _ in range(int(rng.integers(1, 3)))]
            out.write(
                encode({"_id": product * 3 + 1, "imgs": imgs, "category_id": int(rng.choice(categories))})
            )


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: one of ``size.classes`` ten-digit category ids per product."""
    return labels(comp, size.test_rows, names(*range(1_000_000_000, 1_000_000_000 + size.classes)), rng)
