"""Prepared Kaggle-shaped fixtures: each competition's ``fixture.py`` download, prepared by its ``prepare.py``."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from mlebench.declarations import Competition, all_competition_ids, load_competition
from mlebench.kaggle_standin import fixture_competition, write_fixture_download
from mlebench.prepare import prepare_competition

KAGGLE_IDS = [cid for cid in all_competition_ids() if load_competition(cid).source.kind == "kaggle"]


@dataclass(frozen=True)
class PreparedFixture:
    comp: Competition
    raw: Path
    public: Path
    private: Path


def prepare_fixture(competition_id: str, root: Path) -> PreparedFixture:
    """Write the fixture download to ``root/raw`` and prepare it into ``root/prepared``."""
    comp = fixture_competition(load_competition(competition_id))
    raw = root / "raw"
    write_fixture_download(comp, raw)
    prepared = root / "prepared"
    prepare_competition(comp, raw, prepared)
    return PreparedFixture(comp, raw, prepared / "public", prepared / "private")
