"""A small stand-in for Kaggle's histopathologic-cancer-detection download: labels plus tiny .tif patches."""

from pathlib import Path

import numpy as np
from PIL import Image

from authoring.grading_inputs import GradingInputs, binary
from mlebench_spec.declarations import Competition, RealSize


def _write_tif(path: Path, rng: np.random.Generator) -> None:
    Image.fromarray(rng.integers(0, 256, size=(8, 8, 3), dtype=np.uint8)).save(path, format="TIFF")


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the stand-in download into ``dest``, all randomness from ``rng``."""
    ids = [rng.bytes(20).hex() for _ in range(240)]
    train_ids, test_ids = ids[:200], ids[200:]
    (dest / "train").mkdir()
    (dest / "test").mkdir()
    lines = ["id,label"] + [f"{i},{rng.integers(0, 2)}" for i in train_ids]
    (dest / "train_labels.csv").write_text("\n".join(lines) + "\n")
    for i in train_ids:
        _write_tif(dest / "train" / f"{i}.tif", rng)
    for i in test_ids:
        _write_tif(dest / "test" / f"{i}.tif", rng)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 answers, noisy scores."""
    return binary(comp, size.test_rows, rng)
