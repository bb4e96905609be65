"""The CSV writer, file copier and one-hot encoder prepares share, so the same input gives the same bytes.

Re-exported by :mod:`mlebench.data.prepare`, where competition scripts import it from.
"""

from __future__ import annotations

import shutil
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from mlebench_spec.errors import DataError
from mlebench_spec.hashing import hard_link

__all__ = ["format_float", "link_or_copy", "one_hot", "write_csv"]


def format_float(value: float) -> str:
    """Python's shortest round-trip text for a float: exact, and the same on every platform.

    >>> format_float(0.1), format_float(29.0), format_float(1 / 9)
    ('0.1', '29.0', '0.1111111111111111')
    """
    return repr(float(value))


def write_csv(df: pd.DataFrame, path: Path) -> None:
    """Write ``df`` without its index: UTF-8, LF line ends, :func:`format_float`, minimal quoting."""
    path.parent.mkdir(parents=True, exist_ok=True)
    df.to_csv(path, index=False, encoding="utf-8", lineterminator="\n", float_format=format_float)


def link_or_copy(src: Path, dest: Path) -> None:
    """Put ``src`` at ``dest`` (parents created): a hard link when the filesystem allows, else a copy.

    Images and other large binaries pass from raw/ to public/ unchanged; a link costs no space or time.
    """
    dest.parent.mkdir(parents=True, exist_ok=True)
    try:
        hard_link(src, dest)  # hashes taken while extracting ``src`` stay valid for ``dest``
    except OSError:
        shutil.copyfile(src, dest)


def one_hot(values: pd.Series, classes: Sequence[str], where: str) -> dict[str, np.ndarray]:
    """Return a column of 0 and 1 (int64) per class, in ``classes`` order: 1 where ``values`` holds it.

    Values compare as text (a column read as numbers meets classes ``"0"`` and ``"1"``). A value outside
    ``classes`` raises :class:`DataError` naming ``where``, the column and the values.
    """
    text = values.astype(str)
    unknown = sorted(set(text) - set(classes))
    if unknown:
        raise DataError(
            f"{where}: column {values.name!r} has values {unknown[:10]} outside the classes {list(classes)}"
        )
    return {c: (text == c).astype("int64").to_numpy() for c in classes}
