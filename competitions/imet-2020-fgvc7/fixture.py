"""A small stand-in for Kaggle's imet-2020-fgvc7 download: train.csv, labels.csv and tiny train PNGs."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, label_sets
from authoring.kaggle_standin import image_bytes
from authoring.synthetic import numbered
from mlebench_spec.declarations import Competition, RealSize


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the stand-in download into ``dest``, all randomness from ``rng``."""
    n_labels, n_images = 40, 200
    names = [f"culture::c{k}" if k < 15 else f"tag::t{k}" for k in range(n_labels)]
    pd.DataFrame({"attribute_id": range(n_labels), "attribute_name": names}).to_csv(
        dest / "labels.csv", index=False
    )
    ids = [rng.bytes(16).hex() for _ in range(n_images)]
    attributes = [
        " ".join(str(a) for a in sorted(rng.choice(n_labels, size=rng.integers(1, 5), replace=False)))
        for _ in ids
    ]
    pd.DataFrame({"id": ids, "attribute_ids": attributes}).to_csv(dest / "train.csv", index=False)
    (dest / "train").mkdir()
    for image_id in ids:
        (dest / "train" / f"{image_id}.png").write_bytes(image_bytes(rng, fmt="PNG"))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: one to eight of ``size.classes`` numbered attributes per object."""
    return label_sets(comp, size.test_rows, numbered(size.classes), (1, 8), rng)
