"""Embedded competitions for tests: their ids, and a prepared competition's paths (see conftest.py)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mlebench.data.prepare import read_csv_text
from mlebench_spec.declarations import Competition

ROOT = Path(__file__).resolve().parents[1]
COMPETITIONS = ROOT / "competitions"
EMBEDDED = sorted(
    p.name
    for p in COMPETITIONS.iterdir()
    if (p / "competition.yaml").is_file() and "complexity: embedded" in (p / "competition.yaml").read_text()
)


class Prepared:
    """One competition fetched and prepared once per test session."""

    def __init__(self, comp: Competition, raw: Path, out: Path) -> None:
        self.comp, self.raw, self.out = comp, raw, out
        self.public, self.private = out / "public", out / "private"

    def csv(self, name: str) -> pd.DataFrame:
        """Read a public CSV with every cell as text."""
        return read_csv_text(self.public / name)
