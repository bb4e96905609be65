"""The streamed train_test_split writes exactly what pandas + scikit-learn write for the whole frame."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import train_test_split

from mlebench.data.streaming import count_rows, stream_train_test_split

TAXI = Path(__file__).resolve().parents[1] / "competitions" / "new-york-city-taxi-fare-prediction"


def _taxi_module(name: str):
    spec = importlib.util.spec_from_file_location(f"taxi_{name}", TAXI / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(("chunk_rows", "bucket_rows"), [(1000, 1000), (97, 211), (5000, 50)])
def test_streamed_split_equals_the_whole_frame_split(
    tmp_path: Path, chunk_rows: int, bucket_rows: int
) -> None:
    source = tmp_path / "train.csv"
    _taxi_module("fixture").taxi_rides(2500, np.random.default_rng(3)).to_csv(source, index=False)
    whole_train, whole_test = train_test_split(pd.read_csv(source), test_size=123, random_state=7)
    whole_train.to_csv(tmp_path / "expected.csv", index=False)
    test = stream_train_test_split(
        source,
        tmp_path / "train_out.csv",
        test_size=123,
        random_state=7,
        dtype=_taxi_module("prepare").DTYPE,
        chunk_rows=chunk_rows,
        bucket_rows=bucket_rows,
    )
    assert (tmp_path / "train_out.csv").read_bytes() == (tmp_path / "expected.csv").read_bytes()
    assert test.to_csv(index=False) == whole_test.to_csv(index=False)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith("mlebench-split-")]  # buckets cleaned


def test_count_rows_handles_a_missing_final_newline(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_bytes(b"h\n1\n2\n")
    (tmp_path / "b.csv").write_bytes(b"h\n1\n2")
    assert count_rows(tmp_path / "a.csv") == count_rows(tmp_path / "b.csv") == 2


def test_a_split_larger_than_the_file_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.csv").write_bytes(b"h\n1\n2\n")
    with pytest.raises(ValueError, match="cannot hold out 5 of 2 rows"):
        stream_train_test_split(
            tmp_path / "a.csv", tmp_path / "o.csv", test_size=5, random_state=0, dtype={"h": "int64"}
        )
