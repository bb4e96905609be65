"""MLE-bench v1's data functions, in the data layer: prepare a competition, check it, read its leaderboard.

Harnesses built on v1 call ``mlebench.data.download_and_prepare_dataset``, ``is_dataset_prepared``,
``get_leaderboard`` and ``ensure_leaderboard_exists`` with a v1 ``Competition``. These functions take any
object with that competition's places (:class:`Site`: the v1 face's :class:`mlebench.registry.Competition`
is one), so the data layer never imports the face above it. They run the same fetch, prepare and audit as
``mlebench prepare`` (:func:`fetch_and_prepare`), and read the leaderboard kept in the competition's folder
after checking it against the v1 pointer (:func:`mlebench_spec.leaderboards.pinned_leaderboard`).

What differs from v1, and why, is said where it happens: checksums are always verified (``skip_verification``
is refused), ``overwrite_checksums`` records the downloaded archive's sha256 in the declaration, and the
leaderboards are v1's own files, never re-downloaded from Kaggle (``overwrite_leaderboard`` is refused).
"""

from __future__ import annotations

import logging
import shutil
import sys
from pathlib import Path
from types import SimpleNamespace
from typing import Protocol

import pandas as pd

from mlebench_spec.declarations import Competition, declaration_path, load_competition
from mlebench_spec.errors import ConfigError
from mlebench_spec.leaderboards import pinned_leaderboard
from mlebench_spec.params import TextSettings

logger = logging.getLogger(__name__)


class Site(Protocol):
    """Where one competition's files are: what v1's ``Competition`` carries besides its grader."""

    id: str
    raw_dir: Path
    public_dir: Path
    private_dir: Path
    answers: Path
    sample_submission: Path
    leaderboard: Path


def fetch_and_prepare(
    comp: Competition,
    raw: Path,
    prepared: Path,
    downloads: Path,
    *,
    keep_raw: bool,
    refresh_checksums: bool = False,
    texts: TextSettings | None = None,
) -> list[str]:
    """Fetch ``comp``'s raw files, write ``prepared/{public,private}``, audit them; return the audit's lines.

    ``raw`` is removed afterwards unless ``keep_raw``. Each audit line names a leak finding (a known one is
    marked so). This is what ``mlebench prepare`` and :func:`download_and_prepare_dataset` both run. The
    prepared folder gets v1's ``checksums.yaml`` too (:func:`write_checksums`), from hashes already taken.
    """
    from mlebench.data.audit import audit
    from mlebench.data.fetch import fetch
    from mlebench.data.prepare import prepare_competition

    archive = fetch(comp, raw, downloads=downloads, refresh_checksums=refresh_checksums)
    md5s = prepare_competition(comp, raw, prepared, texts=texts)
    write_checksums(prepared, archive.md5 if archive else None, md5s)
    if not keep_raw:
        shutil.rmtree(raw)
    return [
        f"{comp.id}: {'known leak' if f.known else 'LEAK'}: {f.file}: {f.detail}"
        for f in audit(comp, prepared / "public", prepared / "private")
    ]


def download_and_prepare_dataset(
    competition: Site,
    keep_raw: bool = True,
    overwrite_checksums: bool = False,
    overwrite_leaderboard: bool = False,
    skip_verification: bool = False,
) -> None:
    """Prepare ``competition`` into its ``public_dir`` and ``private_dir``, as v1's function of this name.

    Embedded competitions come from an installed package; Kaggle ones are downloaded with the Kaggle client
    (credentials needed: without them a ConfigError says where to put them). A competition already prepared
    is left as it is, unless ``overwrite_checksums``. The raw files go to ``competition.raw_dir`` and stay
    there with ``keep_raw`` (v1's default for this function). ``public_dir`` and ``private_dir`` must be
    siblings, as both of the registry's layouts have them.

    Raises
    ------
    ConfigError
        For ``skip_verification`` or ``overwrite_leaderboard`` (see the module docstring), a public and
        private folder that are not siblings, missing Kaggle credentials or rules not accepted.

    """
    if skip_verification:
        raise ConfigError(
            f"{competition.id}: skip_verification is not supported: every file is checked against the "
            f"sha256 {declaration_path(competition.id)} declares; call without it"
        )
    ensure_leaderboard_exists(competition, force=overwrite_leaderboard)
    prepared = Path(competition.public_dir).parent
    if Path(competition.private_dir).parent != prepared:
        raise ConfigError(
            f"{competition.id}: public_dir {competition.public_dir} and private_dir "
            f"{competition.private_dir} are not in one folder; get the competition from mlebench.registry"
        )
    if is_dataset_prepared(competition) and not overwrite_checksums:
        return
    comp = load_competition(competition.id)
    raw = Path(competition.raw_dir)
    data_dir = prepared.parent.parent if prepared.name == "prepared" else prepared.parent
    downloads = data_dir / ".downloads" / comp.id
    for line in fetch_and_prepare(
        comp, raw, prepared, downloads, keep_raw=keep_raw, refresh_checksums=overwrite_checksums
    ):
        print(line, file=sys.stderr)


def is_dataset_prepared(competition: Site, grading_only: bool = False) -> bool:
    """Whether the prepared folders hold what grading (and, unless ``grading_only``, an agent) needs.

    As v1: ``private_dir`` exists, is not empty and holds the answers; unless ``grading_only``, ``public_dir``
    exists, is not empty and holds the sample submission. What is missing is logged as a warning.
    """
    checks = [
        (Path(competition.private_dir).is_dir(), "Private directory does not exist."),
        (_not_empty(competition.private_dir), "Private directory is empty."),
        (Path(competition.answers).is_file(), "Answers file does not exist."),
    ]
    if not grading_only:
        checks[:0] = [
            (Path(competition.public_dir).is_dir(), "Public directory does not exist."),
            (_not_empty(competition.public_dir), "Public directory is empty."),
        ]
        sample = Path(competition.sample_submission).is_file()
        checks.append((sample, "Sample submission file does not exist."))
    for ok, problem in checks:
        if not ok:
            logger.warning(problem)
            return False
    return True


def ensure_leaderboard_exists(competition: Site, force: bool = False) -> Path:
    """Return the path of the competition's leaderboard, checked against its v1 pointer.

    ``force`` (v1: download it again from Kaggle) is refused: the file kept here is v1's own, verified byte
    for byte, and a fresh download would no longer match the pointer the thresholds are checked against.
    """
    if force:
        raise ConfigError(
            f"{competition.id}: overwrite_leaderboard is not supported: the leaderboard is MLE-bench v1's "
            f"file, kept in competitions/{competition.id}/ and checked against v1's Git-LFS pointer; call "
            "without it"
        )
    path = Path(competition.leaderboard)
    comp = load_competition(competition.id)
    if path.resolve() == comp.leaderboard_path.resolve():
        if not path.is_file() and comp.medals is not None:
            raise FileNotFoundError(
                f"{competition.id} has no leaderboard file: its thresholds are declared in "
                f"{declaration_path(comp.id)} ({comp.medals.source.strip()}); get them from grade_csv's "
                "report"
            )
        return pinned_leaderboard(comp)
    if not path.is_file():
        raise FileNotFoundError(f"leaderboard not found for competition `{competition.id}`: {path}")
    return path


def get_leaderboard(competition: Site) -> pd.DataFrame:
    """Read the competition's leaderboard as v1 does (``pandas.read_csv`` with its defaults)."""
    return pd.read_csv(ensure_leaderboard_exists(competition))


CHECKSUMS = "checksums.yaml"
"""v1's checksums file: in the prepared folder, beside ``manifest.json`` (``Competition.checksums``)."""

CHECKSUM_EXTS = ("csv", "json", "jsonl", "parquet", "bson")
"""The files v1's checksums cover: these extensions, directly in ``public/`` or ``private/``."""


def create_prepared_dir(competition: Site) -> None:
    """Create the competition's ``public_dir`` and ``private_dir`` (and the folders above them)."""
    Path(competition.public_dir).mkdir(parents=True, exist_ok=True)
    Path(competition.private_dir).mkdir(parents=True, exist_ok=True)


def get_checksum(fpath: Path) -> str:
    """Return the md5 (hex) of the file ``fpath``: v1's checksum, of the zip and of prepared files."""
    from mlebench_spec.hashing import sha256_md5_file, written_hashes

    fpath = Path(fpath)
    if not fpath.is_file():
        raise FileNotFoundError(f"get_checksum: expected a file at {fpath}")
    known = written_hashes(fpath)
    return known[1] if known else sha256_md5_file(fpath)[1]


def generate_checksums(
    target_dir: Path, exts: list[str] | None = None, exclude: list[Path] | None = None
) -> dict[str, str]:
    """Return ``{file name: md5}`` for the files directly in ``target_dir`` with one of ``exts``.

    ``exts`` defaults to v1's (:data:`CHECKSUM_EXTS`); files in ``exclude`` and folders are skipped. Nothing
    below ``target_dir`` is included: images, archives and sub-folders are never part of v1's checksums.
    """
    return _checksums(Path(target_dir), exts, exclude, {})


def _checksums(
    folder: Path, exts: list[str] | None, exclude: list[Path] | None, known: dict[Path, str]
) -> dict[str, str]:
    skipped = {Path(p) for p in exclude or []}
    out = {}
    for ext in exts or CHECKSUM_EXTS:
        for path in sorted(folder.glob(f"*.{ext}")):
            if path.is_file() and path not in skipped:
                out[path.name] = known.get(path) or get_checksum(path)
    return out


def write_checksums(prepared: Path, zip_md5: str | None, md5s: dict[Path, str] | None = None) -> Path:
    """Write ``prepared/checksums.yaml`` in v1's shape (``zip``, ``public``, ``private``); return its path.

    ``zip`` is the md5 of the Kaggle download (left out for a competition with no archive: an embedded
    one); ``public`` and ``private`` are :func:`generate_checksums` of the two folders, taken from
    ``md5s`` (what the manifest's pass hashed) where it has them. The split itself is verified by its
    manifest: this file is v1's view of it, for harnesses that read ``load_yaml(competition.checksums)``.
    """
    import yaml

    known = md5s or {}
    data: dict[str, object] = {
        side: _checksums(prepared / side, None, None, known) for side in ("public", "private")
    }
    if zip_md5:
        data["zip"] = zip_md5
    path = prepared / CHECKSUMS
    from mlebench_spec.files import write_text

    write_text(path, yaml.safe_dump(data, default_flow_style=False, sort_keys=True))
    return path


def download_dataset(
    competition_id: str, download_dir: Path, quiet: bool = False, force: bool = False
) -> Path:
    """Download a Kaggle competition's zip into ``download_dir`` with the Kaggle client; return its path.

    As v1's function of this name: ``competition_id`` names the competition (this project's id; its
    declared Kaggle slug is used where the two differ, and an undeclared id is taken as a slug), and a
    finished download is reused unless ``force``. Unlike v1, Kaggle's refusals (credentials, rules not
    accepted, no such competition) are a ConfigError saying which and what to do (the rules page to accept,
    never an interactive prompt), and the download is not retried. The zip is not checked here: its sha256
    is checked by :func:`download_and_prepare_dataset` (and :func:`get_checksum` gives v1's md5 of it).
    """
    from mlebench.data.kaggle_source import download_archive, kaggle_api
    from mlebench_spec.declarations import KaggleSource, all_competition_ids

    if competition_id in all_competition_ids():
        comp = load_competition(competition_id)
        if not isinstance(comp.source, KaggleSource):
            raise ConfigError(
                f"{competition_id} is not a Kaggle competition (source.kind {comp.source.kind!r} in "
                f"{declaration_path(competition_id)}); download_and_prepare_dataset prepares it"
            )
    else:
        source = KaggleSource.model_validate({"kind": "kaggle", "slug": competition_id})
        comp = SimpleNamespace(id=competition_id, source=source)  # what the download reads of a declaration
    if not quiet:
        logger.info(f"Downloading the dataset for `{competition_id}` to `{download_dir}`...")
    return download_archive(comp, Path(download_dir), quiet=quiet, api=kaggle_api(), force=force)


def _not_empty(folder: Path) -> bool:
    folder = Path(folder)
    return folder.is_dir() and any(folder.iterdir())


__all__ = [
    "CHECKSUMS",
    "Site",
    "create_prepared_dir",
    "download_and_prepare_dataset",
    "download_dataset",
    "ensure_leaderboard_exists",
    "fetch_and_prepare",
    "generate_checksums",
    "get_checksum",
    "get_leaderboard",
    "is_dataset_prepared",
    "write_checksums",
]
