"""A small stand-in for Kaggle's aptos2019-blindness-detection download.

train.csv (id_code, diagnosis 0-4) with one train_images/<id_code>.png each, plus Kaggle's own test.csv,
test_images/ and sample_submission.csv (which MLE-bench v1 does not use).
"""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, regression
from authoring.kaggle_standin import image_bytes
from authoring.synthetic import ids
from mlebench_spec.declarations import Competition, RealSize


def _images(folder: Path, ids: list[str], rng: np.random.Generator) -> None:
    folder.mkdir()
    for id_code in ids:
        (folder / f"{id_code}.png").write_bytes(image_bytes(rng, (16, 16), "PNG"))


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``."""
    ids = [rng.bytes(6).hex() for _ in range(300)]
    diagnosis = rng.choice(5, size=len(ids), p=[0.5, 0.1, 0.25, 0.05, 0.1])
    pd.DataFrame({"id_code": ids, "diagnosis": diagnosis}).to_csv(dest / "train.csv", index=False)
    _images(dest / "train_images", ids, rng)
    test_ids = [rng.bytes(6).hex() for _ in range(5)]
    pd.DataFrame({"id_code": test_ids}).to_csv(dest / "test.csv", index=False)
    pd.DataFrame({"id_code": test_ids, "diagnosis": 0}).to_csv(dest / "sample_submission.csv", index=False)
    _images(dest / "test_images", test_ids, rng)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: diagnosis grades 0-4, predictions off by about one."""
    n = size.test_rows
    return regression(comp, ids("", n), rng.integers(0, 5, n), 0.8, rng)
