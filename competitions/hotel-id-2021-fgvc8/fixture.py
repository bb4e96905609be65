"""A small stand-in for Kaggle's hotel-id-2021-fgvc8 download: train.csv and tiny JPEGs per hotel chain.

Like the real download, the image ce27d36c9147cc19.jpg is listed twice.
"""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, ranking
from authoring.kaggle_standin import image_bytes
from authoring.synthetic import numbered
from mlebench_spec.declarations import Competition, RealSize

DUPLICATE = "ce27d36c9147cc19.jpg"


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the stand-in download into ``dest``, all randomness from ``rng``."""
    n = 300
    hotels = rng.integers(1000, 99999, size=25)
    chains = rng.integers(0, 6, size=25)
    pick = rng.integers(0, 25, size=n)
    images = [f"{rng.bytes(8).hex()}.jpg" for _ in range(n)]
    images[-1] = images[-2] = DUPLICATE
    stamps = pd.Timestamp("2016-01-01") + pd.to_timedelta(rng.integers(0, 10**8, size=n), unit="s")
    frame = pd.DataFrame(
        {
            "image": images,
            "chain": chains[pick],
            "hotel_id": hotels[pick],
            "timestamp": stamps.strftime("%Y-%m-%d %H:%M:%S"),
        }
    )
    frame.to_csv(dest / "train.csv", index=False)
    for row in frame.itertuples():
        folder = dest / "train_images" / str(row.chain)
        folder.mkdir(parents=True, exist_ok=True)
        (folder / row.image).write_bytes(image_bytes(rng))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: one hotel of ``size.classes`` per image, five ranked guesses."""
    return ranking(comp, size.test_rows, numbered(size.classes), (1, 1), 5, rng)
