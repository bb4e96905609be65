"""ml2021spring-hw2: v1 re-splits Kaggle's training frames, keeping Kaggle's test share.

The test share is len(test_11) / (len(train_11) + len(test_11)); v1 runs
``train_test_split(np.arange(len(train_11)), test_size=share, random_state=0)`` and writes the chosen train
and test frames (in the order the split returns them) to public/timit_11/timit_11/{train_11, train_label_11,
test_11}.npy. The new test frames are numbered 0..n-1: sampleSubmission.csv (ClassId 0) and
private/answers.csv (Id, ClassId). The large feature arrays are memory-mapped and copied in chunks.
"""

from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition

FOLDER = Path("timit_11") / "timit_11"
CHUNK = 65_536


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build public/ and private/ from ``raw`` as v1 does (see the module docstring)."""
    features = np.load(raw / FOLDER / "train_11.npy", mmap_mode="r")
    labels = np.load(raw / FOLDER / "train_label_11.npy")
    n_test = np.load(raw / FOLDER / "test_11.npy", mmap_mode="r").shape[0]
    share = n_test / (len(features) + n_test)
    train_idx, test_idx = train_test_split(
        np.arange(len(features)), test_size=share, random_state=comp.split.seed
    )
    out = public / FOLDER
    out.mkdir(parents=True)
    _take_rows(features, train_idx, out / "train_11.npy")
    np.save(out / "train_label_11.npy", labels[train_idx])
    _take_rows(features, test_idx, out / "test_11.npy")
    ids = np.arange(len(test_idx))
    write_csv(pd.DataFrame({"Id": ids, "ClassId": labels[test_idx]}), private / comp.submission.answers)
    write_csv(pd.DataFrame({"Id": ids, "ClassId": 0}), public / "sampleSubmission.csv")


def _take_rows(source: np.ndarray, rows: np.ndarray, path: Path) -> None:
    target = np.lib.format.open_memmap(
        path, mode="w+", dtype=source.dtype, shape=(len(rows), *source.shape[1:])
    )
    for start in range(0, len(rows), CHUNK):
        target[start : start + CHUNK] = source[rows[start : start + CHUNK]]
    target.flush()
    del target
