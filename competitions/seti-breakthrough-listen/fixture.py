"""A small stand-in for Kaggle's SETI download: train_labels.csv, train/<id[0]>/<id>.npy, old_leaky_data/."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, binary
from mlebench_spec.declarations import Competition, RealSize


def _cadence(rng: np.random.Generator) -> np.ndarray:
    return rng.normal(0, 1, size=(6, 4, 8)).astype(np.float16)


def _hex_ids(rng: np.random.Generator, n: int) -> list[str]:
    return [f"{i:015x}" for i in rng.choice(16**12, size=n, replace=False) * 997]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small synthetic download into the empty folder ``dest``."""
    ids = _hex_ids(rng, 300)
    new, old = ids[:260], ids[260:]
    pd.DataFrame({"id": new, "target": (rng.random(size=260) < 0.2).astype(int)}).to_csv(
        dest / "train_labels.csv", index=False
    )
    for name in new:
        (dest / "train" / name[0]).mkdir(parents=True, exist_ok=True)
        np.save(dest / "train" / name[0] / f"{name}.npy", _cadence(rng))
    leaky = dest / "old_leaky_data"
    (leaky / "train_old").mkdir(parents=True)
    pd.DataFrame({"id": old, "target": rng.integers(0, 2, size=len(old))}).to_csv(
        leaky / "train_labels_old.csv", index=False
    )
    for name in old:
        np.save(leaky / "train_old" / f"{name}.npy", _cadence(rng))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: 0/1 answers, noisy scores."""
    return binary(comp, size.test_rows, rng)
