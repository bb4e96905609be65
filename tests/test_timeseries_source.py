"""The .ts reader and writer shared by the embedded series competitions (mlebench.data.timeseries)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pytest

from mlebench.data.timeseries import read_ts, write_series_classification
from mlebench_spec.errors import DataError

HEADER = "# comment\n@problemName toy\n@classLabel true 1 2\n@data\n"


def _ts(tmp_path: Path, body: str) -> Path:
    path = tmp_path / "toy.ts"
    path.write_text(HEADER + body)
    return path


def test_cases_are_read_channel_by_channel(tmp_path: Path) -> None:
    cases = read_ts(_ts(tmp_path, "1,2,3:4,5,6:1\n\n7,8:9,10:2\n"), channels=2)
    assert [label for _, label in cases] == ["1", "2"]
    assert cases[0][0].tolist() == [[1, 4], [2, 5], [3, 6]] and cases[1][0].shape == (2, 2)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        ("1,2:1\n", r"toy.ts:5: expected 2 channel\(s\)"),
        ("1,2:3:1\n", r"toy.ts:5: channels have different lengths"),
        ("1,x:3,4:1\n", r"toy.ts:5: a reading is not a number"),
        ("", r"no cases after @data"),
    ],
)
def test_malformed_files_name_the_line(tmp_path: Path, body: str, message: str) -> None:
    with pytest.raises(DataError, match=message):
        read_ts(_ts(tmp_path, body), channels=2)


def test_a_fixed_length_is_checked(tmp_path: Path) -> None:
    with pytest.raises(DataError, match="expected 4 readings per channel, found 3"):
        read_ts(_ts(tmp_path, "1,2,3:1\n"), channels=1, length=4)


def test_the_competition_files_hide_labels_and_order(tmp_path: Path) -> None:
    public, private = tmp_path / "public", tmp_path / "private"
    public.mkdir()
    private.mkdir()
    train = read_ts(_ts(tmp_path, "1,2:1\n3,4:2\n5,6:1\n"), channels=1)
    test = read_ts(_ts(tmp_path, "7,8,9:2\n1,1:1\n"), channels=1)
    write_series_classification(train, test, classes=["k1", "k2"], label_column="kind",
                                channel_columns=["v"], seed=0, public=public, private=private)  # fmt: skip
    train_csv, answers = pd.read_csv(public / "train.csv"), pd.read_csv(private / "answers.csv")
    assert sorted(train_csv["kind"]) == ["k1", "k1", "k2"] and train_csv["id"].is_monotonic_increasing
    assert list(pd.read_csv(public / "test.csv").columns) == ["id"]
    series = pd.read_csv(public / "test_series.csv")
    assert list(series.columns) == ["id", "t", "v"] and len(series) == 5
    assert answers[["k1", "k2"]].sum().tolist() == [1, 1] and (answers[["k1", "k2"]].sum(axis=1) == 1).all()
    assert pd.read_csv(public / "sample_submission.csv")[["k1", "k2"]].eq(0.5).all().all()
    with pytest.raises(DataError, match=r"labels \['3'\] outside the classes"):
        write_series_classification(train, read_ts(_ts(tmp_path, "1:3\n"), channels=1), classes=["k1", "k2"],
                                    label_column="kind", channel_columns=["v"], seed=0, public=public,
                                    private=private)  # fmt: skip
