"""Loading the public split: the main tables, auxiliary tables and image folders.

Nothing here decides what the task is; it only finds and reads what is there. The detection
rules live in :mod:`baseline.detect`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".tif", ".tiff", ".bmp")


@dataclass
class AuxPair:
    """A ``train_<name>.csv`` / ``test_<name>.csv`` pair of extra tables."""

    name: str
    train: pd.DataFrame
    test: pd.DataFrame


@dataclass
class PublicData:
    """The public files of one competition, read into memory (images stay on disk)."""

    root: Path
    train: pd.DataFrame
    test: pd.DataFrame
    sample: pd.DataFrame
    description: str = ""
    aux: list[AuxPair] = field(default_factory=list)
    train_images: dict[str, Path] = field(default_factory=dict)
    test_images: dict[str, Path] = field(default_factory=dict)

    @property
    def id_col(self) -> str:
        """The id column: the sample submission's first column."""
        return str(self.sample.columns[0])

    @property
    def has_images(self) -> bool:
        """True when both ``train/`` and ``test/`` hold images."""
        return bool(self.train_images) and bool(self.test_images)


def read_table(path: Path) -> pd.DataFrame:
    """Read a CSV keeping empty strings as missing values (pandas' default)."""
    return pd.read_csv(path, low_memory=False)


def load_public(root: Path) -> PublicData:
    """Read ``train.csv``, ``test.csv``, ``sample_submission.csv``, ``description.md`` and extras.

    Args:
        root: The public data directory (``DATA_DIR``).

    Returns:
        The loaded :class:`PublicData`. ``train.csv``/``sample_submission.csv`` are required;
        a missing ``test.csv`` is replaced by the sample submission's id column.

    """
    for name in ("train.csv", "sample_submission.csv"):
        if not (root / name).is_file():
            raise FileNotFoundError(f"{root / name} is missing; the baseline needs it to infer the task")
    sample = read_table(root / "sample_submission.csv")
    train = read_table(root / "train.csv")
    test = read_table(root / "test.csv") if (root / "test.csv").is_file() else sample.iloc[:, :1].copy()
    description_path = root / "description.md"
    description = (
        description_path.read_text(encoding="utf-8", errors="replace") if description_path.is_file() else ""
    )
    return PublicData(
        root=root,
        train=train,
        test=test,
        sample=sample,
        description=description,
        aux=_load_aux_pairs(root),
        train_images=_image_index(root / "train"),
        test_images=_image_index(root / "test"),
    )


def _load_aux_pairs(root: Path) -> list[AuxPair]:
    pairs = []
    for train_path in sorted(root.glob("train_*.csv")):
        name = train_path.stem[len("train_") :]
        test_path = root / f"test_{name}.csv"
        if test_path.is_file():
            pairs.append(AuxPair(name=name, train=read_table(train_path), test=read_table(test_path)))
    return pairs


def _image_index(folder: Path) -> dict[str, Path]:
    """Map image file stem (the row id) to its path, for every image directly inside ``folder``."""
    if not folder.is_dir():
        return {}
    return {p.stem: p for p in sorted(folder.iterdir()) if p.suffix.lower() in IMAGE_SUFFIXES}
