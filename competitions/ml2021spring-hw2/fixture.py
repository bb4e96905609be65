"""A small stand-in for Kaggle's ml2021spring-hw2 download: TIMIT-style frame features and labels as .npy."""

from pathlib import Path

import numpy as np

from authoring.grading_inputs import GradingInputs, labels
from authoring.synthetic import numbered
from mlebench_spec.declarations import Competition, RealSize

N_FEATURES = 429  # 11 frames x 39 MFCC features


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small stand-in download into ``dest``."""
    folder = dest / "timit_11" / "timit_11"
    folder.mkdir(parents=True)
    n_train, n_test = 200, 80
    np.save(folder / "train_11.npy", rng.normal(size=(n_train, N_FEATURES)).astype(np.float32))
    np.save(folder / "train_label_11.npy", rng.integers(0, 39, size=n_train).astype(str))
    np.save(folder / "test_11.npy", rng.normal(size=(n_test, N_FEATURES)).astype(np.float32))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: one of ``size.classes`` numbered phonemes per frame."""
    return labels(comp, size.test_rows, numbered(size.classes), rng)
