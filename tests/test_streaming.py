"""The streamed train_test_split writes exactly what pandas + scikit-learn write for the whole frame."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.model_selection import train_test_split

from mlebench.data.streaming import count_rows, output_positions, stream_train_test_split

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


@pytest.mark.parametrize(("n", "test_size", "seed"), [(10, 3, 0), (9_000_017, 12_345, 42)])
def test_output_positions_invert_train_test_splits_permutation(
    tmp_path: Path, n: int, test_size: int, seed: int
) -> None:
    order = np.random.RandomState(seed).permutation(n)  # what train_test_split draws
    position = output_positions(n, test_size, seed, tmp_path)
    assert position.dtype == np.int32
    assert (position[order] == np.arange(-test_size, n - test_size)).all()
    assert list(tmp_path.iterdir()) == []  # the parked permutation is gone


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


NASTY = [
    "k1,5.,2009-06-15 17:26:21 UTC,-73.844311,40.721319,-73.84161,40.712278,1",  # "5." is written 5.0
    "k2,1e-05,2009-06-15 17:26:21 UTC,-73.9,40.7,,40.712278,2",  # exponent; an empty float
    "k3,0.00001,NA,-73.9,40.7,-73.8,40.7,3",  # below 1e-4 is written 1e-05; NA is missing
    "k4,4.50,x,-073.9,+40.7,-73.8,40.7,007",  # superfluous zeros and signs
    'k5,0.30000000000000004,"a, quoted",-73.9,40.7,-73.8,40.7,1',  # 17 digits; a quoted comma
    "k6,123456789012345.6,héllo,-73.9,40.7,-73.8,40.7,-0",  # 16 digits; non-ASCII; -0
    "k7,nan,null,-0.0,0.0,0.0001,40.7,1\r",  # a missing float word; CR LF line end
    "k8,2.5,2009-06-15 17:26:21 UTC,-73.9,40.7,-73.8,40.7,1",  # canonical
]


@pytest.mark.parametrize("final_newline", [True, False])
def test_the_verbatim_path_writes_what_pandas_writes_for_every_kind_of_line(
    tmp_path: Path, final_newline: bool
) -> None:
    """Lines pandas would rewrite go through pandas; canonical ones pass verbatim; bytes equal both ways."""
    source = tmp_path / "train.csv"
    rides = _taxi_module("fixture").taxi_rides(600, np.random.default_rng(5)).to_csv(index=False).splitlines()
    lines = rides[:1] + [line for pair in zip(rides[1:], NASTY * 75, strict=True) for line in pair]
    source.write_text("\n".join(lines) + ("\n" if final_newline else ""), encoding="utf-8")
    dtype = _taxi_module("prepare").DTYPE
    outs = {}
    for verbatim in (True, False):
        out = tmp_path / f"out-{verbatim}.csv"
        test = stream_train_test_split(
            source, out, test_size=50, random_state=1, dtype=dtype, bucket_rows=97, verbatim=verbatim
        )
        outs[verbatim] = (out.read_bytes(), test.to_csv(index=False))
    whole_train, whole_test = train_test_split(pd.read_csv(source, dtype=dtype), test_size=50, random_state=1)
    assert outs[True] == outs[False]
    assert outs[True][0] == whole_train.to_csv(index=False).encode()
    assert outs[True][1] == whole_test.to_csv(index=False)
    assert b"k8,2.5,2009-06-15 17:26:21 UTC,-73.9,40.7,-73.8,40.7,1\n" in outs[True][0]
    assert b"k1,5.0," in outs[True][0] and b"k4,4.5,x,-73.9,40.7," in outs[True][0]


def test_canonical_floats_pass_through_exactly_as_pandas_writes_them() -> None:
    """Every decimal the verbatim path accepts is parsed exactly and written back unchanged by pandas."""
    import io
    import re

    from mlebench.data.streaming import _float_field

    rng = np.random.default_rng(0)
    texts = []
    for _ in range(100_000):
        digits = "".join(rng.choice(list("0123456789"), rng.integers(1, 18)))
        cut = rng.integers(0, len(digits) + 1)
        text = (digits[:cut].lstrip("0") or "0") + "." + (digits[cut:] or "0")
        texts.append(("-" if rng.random() < 0.3 else "") + text)
    places = rng.integers(0, 9, 50_000)
    centred = rng.normal(-73.9, 0.1, 50_000)
    texts += [repr(round(float(x), int(d))) for x, d in zip(centred, places, strict=True)]
    accepted = [t for t in texts if re.fullmatch(_float_field(), t)]
    assert len(accepted) > 50_000
    frame = pd.read_csv(io.StringIO("a\n" + "\n".join(accepted) + "\n"), dtype={"a": "float64"})
    assert frame["a"].tolist() == [float(t) for t in accepted]
    assert frame.to_csv(index=False).splitlines()[1:] == accepted


@pytest.mark.parametrize("body", [b"h\n1.5\n\n2.5\n3.5\n", b"h,g\n1.5,1\n\n2.5,2\n3.5,3\n"])
def test_a_blank_line_is_refused_not_passed_through(tmp_path: Path, body: bytes) -> None:
    """A blank line (which pandas skips) makes the row count wrong: an error on either path."""
    (tmp_path / "a.csv").write_bytes(body)
    with pytest.raises(ValueError, match="row"):
        stream_train_test_split(
            tmp_path / "a.csv",
            tmp_path / "o.csv",
            test_size=1,
            random_state=0,
            dtype={"h": "float64", "g": "int64"} if b"g" in body else {"h": "float64"},
        )
