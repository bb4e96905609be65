"""facebook-recruiting-iii-keyword-extraction: v1 splits the rows of Train.csv (TTS 0.1, seed 0).

public: train.csv, test.csv (without Tags), sample_submission.csv (the test rows, Id, Title and Body, with
every Tags = "javascript c# python php java"; the grader reads only Id and Tags); private: test.csv (with
Tags). Rows keep train_test_split's shuffled order, as in v1.

Train.csv is several GB, so this runs out of core: one pass counts the rows, train_test_split permutes
their positions, a second pass scatters the rows into buckets of output positions, and each bucket is
then sorted and appended. The bytes equal those of splitting the whole frame at once.
"""

import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench_spec.declarations import Competition

CHUNK_ROWS = 200_000
BUCKET_ROWS = 200_000
SAMPLE_TAGS = "javascript c# python php java"


def _chunks(raw: Path, **kwargs) -> Iterator[pd.DataFrame]:
    with zipfile.ZipFile(raw / "Train.zip") as zf, zf.open("Train.csv") as f:
        yield from pd.read_csv(f, dtype={"Id": str, "Tags": str}, chunksize=CHUNK_ROWS, **kwargs)


def _positions(n: int, comp: Competition) -> tuple[np.ndarray, np.ndarray]:
    """For each source row: 0 for train or 1 for test, and its row number in that output."""
    size = comp.split.test_fraction if comp.split.test_size is None else comp.split.test_size
    train, test = train_test_split(np.arange(n), test_size=size, random_state=comp.split.seed)
    side, position = np.zeros(n, dtype=np.int8), np.zeros(n, dtype=np.int64)
    side[test] = 1
    position[train] = np.arange(len(train))
    position[test] = np.arange(len(test))
    return side, position


def _scatter(raw: Path, side: np.ndarray, position: np.ndarray, tmp: Path) -> None:
    start = 0
    for number, chunk in enumerate(_chunks(raw)):
        rows = np.arange(start, start + len(chunk))
        start += len(chunk)
        keys = pd.DataFrame({"side": side[rows], "bucket": position[rows] // BUCKET_ROWS})
        chunk = chunk.set_axis(position[rows])
        for (s, b), group in keys.groupby(["side", "bucket"]).indices.items():
            chunk.iloc[group].to_pickle(tmp / f"{s}_{b:06d}_{number:06d}.pkl")


def _gather(tmp: Path, side: int) -> Iterator[pd.DataFrame]:
    """Yield the rows of one output in order, a bucket at a time."""
    buckets = sorted({p.name[:8] for p in tmp.glob(f"{side}_*.pkl")})
    for bucket in buckets:
        parts = [pd.read_pickle(p) for p in sorted(tmp.glob(f"{bucket}_*.pkl"))]
        yield pd.concat(parts).sort_index()


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split Train.csv out of core into train.csv and test.csv; write the answers and the sample."""
    n = sum(len(chunk) for chunk in _chunks(raw, usecols=["Id"]))
    side, position = _positions(n, comp)
    with tempfile.TemporaryDirectory() as tmp:
        _scatter(raw, side, position, Path(tmp))
        for first, part in enumerate(_gather(Path(tmp), 0)):
            part.to_csv(public / "train.csv", index=False, mode="a", header=first == 0)
        for first, part in enumerate(_gather(Path(tmp), 1)):
            header = first == 0
            part.to_csv(private / "test.csv", index=False, mode="a", header=header)
            part.drop(columns=["Tags"]).to_csv(public / "test.csv", index=False, mode="a", header=header)
            sample = part.drop(columns=["Tags"]).assign(Tags=SAMPLE_TAGS)
            sample.to_csv(public / "sample_submission.csv", index=False, mode="a", header=header)
