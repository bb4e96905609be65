"""Kaggle-shaped fixtures: each competition's ``fixture.py`` download, fetched and prepared like real data."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from authoring.kaggle_standin import (
    StandinKaggle,
    fixture_competition,
    write_fixture_archive,
    write_fixture_download,
)
from mlebench.data.fetch import fetch
from mlebench.data.prepare import prepare_competition
from mlebench_spec.declarations import Competition, KaggleSource, all_competition_ids, load_competition
from mlebench_spec.hashing import sha256_file

KAGGLE_IDS = [cid for cid in all_competition_ids() if load_competition(cid).source.kind == "kaggle"]


@dataclass(frozen=True)
class PreparedFixture:
    """A competition prepared from its fixture: the declaration used and the three folders."""

    comp: Competition
    raw: Path
    public: Path
    private: Path


def serve_fixture(comp: Competition, server: StandinKaggle, folder: Path) -> Competition:
    """Zip ``comp``'s fixture as ``<slug>.zip``, serve it (rules accepted), and pin its sha256 in ``comp``.

    Extra files (``source.extra_files``) are served too, at the plain-HTTP form of their URL (the client
    side reaches the server as its HTTP proxy), with their sha256 pinned as well.
    """
    assert isinstance(comp.source, KaggleSource)
    slug = comp.source.slug
    archive = write_fixture_archive(comp, folder / f"{slug}.zip")
    server.archives[slug] = archive
    server.accepted.add(slug)
    extras = []
    for extra in comp.source.extra_files:
        served = server.extras[extra.name] = folder / extra.name
        url = "http://" + extra.url.split("://", 1)[1]
        extras.append(extra.model_copy(update={"url": url, "sha256": sha256_file(served)}))
    update = {"archive_sha256": sha256_file(archive), "extra_files": extras}
    return comp.model_copy(update={"source": comp.source.model_copy(update=update)})


def prepare_fixture(competition_id: str, root: Path, server: StandinKaggle | None = None) -> PreparedFixture:
    """Prepare the fixture into ``root/prepared``: downloaded through ``server`` when given, else written."""
    comp = fixture_competition(load_competition(competition_id))
    raw = root / "raw"
    if server is None:
        write_fixture_download(comp, raw)
    else:
        comp = serve_fixture(comp, server, root / "served")
        fetch(comp, raw, downloads=root / "downloads")
    prepared = root / "prepared"
    prepare_competition(comp, raw, prepared)
    return PreparedFixture(comp, raw, prepared / "public", prepared / "private")
