"""Series classification sources in the UCR/UEA ``.ts`` format, and the files our series competitions write.

A ``.ts`` file has a header (``@problemName``, ``@classLabel`` ...), then after ``@data`` one case per line:
channels separated by ``:``, readings within a channel by ``,``, the class label last. The series
competitions publish each source split as ``train.csv`` / ``test.csv`` (random ids, the class in
``train.csv``), the readings in long format (``train_series.csv`` / ``test_series.csv``: ``id``, ``t``, one
column per channel), a uniform ``sample_submission.csv``, and one-hot private answers.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from mlebench.data.splitting import shuffled_ids
from mlebench.data.writers import one_hot, write_csv
from mlebench_spec.errors import DataError

__all__ = ["Case", "read_ts", "write_series_classification"]

Case = tuple[np.ndarray, str]
"""One series: a ``(time steps, channels)`` array of readings and its class label as written in the file."""


def read_ts(path: Path, channels: int, length: int | None = None) -> list[Case]:
    """Read every case of ``path``: ``channels`` channels of equal length (``length`` if given).

    A malformed line raises :class:`DataError` naming the file and line number.
    """
    cases: list[Case] = []
    in_data = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if not in_data:
            in_data = line.lower() == "@data"
            continue
        *parts, label = line.split(":")
        if len(parts) != channels:
            raise DataError(
                f"{path}:{number}: expected {channels} channel(s) and a label, found {len(parts)}"
            )
        try:
            values = [np.array(part.split(","), dtype=np.float64) for part in parts]
        except ValueError as err:
            raise DataError(f"{path}:{number}: a reading is not a number ({err})") from None
        sizes = {len(v) for v in values}
        if len(sizes) != 1:
            raise DataError(f"{path}:{number}: channels have different lengths {sorted(sizes)}")
        if length is not None and sizes != {length}:
            raise DataError(f"{path}:{number}: expected {length} readings per channel, found {sizes.pop()}")
        cases.append((np.column_stack(values), label.strip()))
    if not cases:
        raise DataError(f"{path}: no cases after @data")
    return cases


def write_series_classification(
    train_cases: Sequence[Case],
    test_cases: Sequence[Case],
    *,
    classes: Sequence[str],
    label_column: str,
    channel_columns: Sequence[str],
    seed: int,
    public: Path,
    private: Path,
) -> None:
    """Write a series classification competition from its source split.

    ``classes`` are the answer columns. A case labelled ``L`` in the file belongs to class ``prefix + L``,
    the prefix being what the class names have before their digits (``s`` for ``s1`` ... ``s9``).
    """
    prefix = _prefix(classes)
    for side, cases in (("train", train_cases), ("test", test_cases)):
        unknown = sorted({label for _, label in cases} - {c[len(prefix) :] for c in classes})
        if unknown:
            raise DataError(f"{side} cases have labels {unknown} outside the classes {list(classes)}")
    ids = shuffled_ids(len(train_cases) + len(test_cases), seed, start=1)
    train_ids, test_ids = ids[: len(train_cases)], ids[len(train_cases) :]

    def table(ids: np.ndarray, cases: Sequence[Case]) -> pd.DataFrame:
        return pd.DataFrame({"id": ids, label_column: [prefix + label for _, label in cases]}).sort_values(
            "id"
        )

    train, test = table(train_ids, train_cases), table(test_ids, test_cases)
    write_csv(train, public / "train.csv")
    write_csv(test[["id"]], public / "test.csv")
    write_csv(_long(train_ids, train_cases, channel_columns), public / "train_series.csv")
    write_csv(_long(test_ids, test_cases, channel_columns), public / "test_series.csv")
    test_ids_sorted = test["id"].to_numpy()
    write_csv(pd.DataFrame({"id": test_ids_sorted, **{c: 1 / len(classes) for c in classes}}),
              public / "sample_submission.csv")  # fmt: skip
    answers = one_hot(test[label_column], classes, "test cases")
    write_csv(pd.DataFrame({"id": test_ids_sorted, **answers}), private / "answers.csv")


def _prefix(classes: Sequence[str]) -> str:
    """Return what the class names have before their digits (``"s"`` for ``s1 .. s9``)."""
    first = classes[0]
    return first.rstrip("0123456789")


def _long(ids: np.ndarray, cases: Sequence[Case], columns: Sequence[str]) -> pd.DataFrame:
    """One row per (id, time step), sorted by id then ``t``, one column per channel."""
    frames = []
    for k in np.argsort(ids, kind="stable"):
        readings = cases[k][0]
        frame = pd.DataFrame(readings, columns=list(columns))
        frame.insert(0, "t", np.arange(len(readings)))
        frame.insert(0, "id", ids[k])
        frames.append(frame)
    return pd.concat(frames, ignore_index=True)
