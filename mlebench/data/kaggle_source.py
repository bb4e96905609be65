"""Kaggle competitions through the official ``kaggle`` client: preflight, download, checksum, extract.

Credentials come from the client's usual places (``~/.kaggle/kaggle.json`` or ``$KAGGLE_CONFIG_DIR``, the
``KAGGLE_USERNAME``/``KAGGLE_KEY`` variables, an access token). The download of ``<slug>.zip`` goes to
``data/downloads/<id>/`` and is kept: the client resumes a partial file with a byte range, and a finished
archive is not fetched again. The archive's sha256 is checked against ``source.archive_sha256``; then it is
extracted beside ``data/raw/<id>`` and renamed into place, so a crash never leaves a half-extracted raw
folder.
"""

from __future__ import annotations

import io
import os
import re
import shutil
import urllib.request
import warnings
from contextlib import redirect_stdout
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from mlebench.data.archives import FETCH_RECORD, extract_zip
from mlebench.data.dvc_state import record_md5s
from mlebench_spec.declarations import Competition, ExtraFile, KaggleSource, declaration_path
from mlebench_spec.errors import ConfigError, DataError
from mlebench_spec.files import published, write_json
from mlebench_spec.hashing import sha256_file, sha256_md5_file

__all__ = [
    "ArchiveDigest",
    "Preflight",
    "download_archive",
    "download_extra",
    "fetch_kaggle",
    "http_status",
    "kaggle_api",
    "preflight",
    "record_archive_checksum",
]

CREDENTIALS_HELP = (
    "no Kaggle credentials: put kaggle.json (from kaggle.com > Settings > API) in ~/.kaggle/ or "
    "$KAGGLE_CONFIG_DIR, or set KAGGLE_USERNAME and KAGGLE_KEY"
)


class KaggleAccessError(ConfigError):
    """Kaggle refused a request: credentials, rules or an unknown competition; ``state`` says which."""

    def __init__(self, state: str, message: str) -> None:
        super().__init__(message)
        self.state = state


class ArchiveDigest(NamedTuple):
    """A downloaded archive's sha256 (what the declaration pins) and md5 (MLE-bench v1's checksum of it)."""

    sha256: str
    md5: str


@dataclass(frozen=True)
class Preflight:
    """What a download of one competition would meet, found out before downloading anything."""

    competition_id: str
    slug: str
    state: str  # ready | no-credentials | bad-credentials | rules-not-accepted | not-found | error
    size_bytes: int | None
    detail: str


def kaggle_api() -> Any:
    """Return an authenticated ``KaggleApi``; raise :class:`KaggleAccessError` without credentials."""
    quiet = io.StringIO()
    with redirect_stdout(quiet):  # importing kaggle authenticates and prints help when it cannot
        try:
            from kaggle.api.kaggle_api_extended import KaggleApi
        except OSError:  # kaggle 1.6 authenticates on import and raises without credentials
            raise KaggleAccessError("no-credentials", CREDENTIALS_HELP) from None

        api = KaggleApi()
        # The client (2.x) reads its endpoint setting once, at import; honour it if it was set after that.
        args = getattr(api, "args", None)  # kaggle 1.6 has none: it reads KAGGLE_API_ENDPOINT instead
        if (
            os.environ.get("KAGGLE_API_ENVIRONMENT") == "LOCALHOST"
            and args is not None
            and "--local" not in args
        ):
            api.args = [*args, "--local"]
        try:
            api.authenticate()
        except (SystemExit, OSError):  # 2.x exits without credentials; 1.6 raises OSError
            raise KaggleAccessError("no-credentials", CREDENTIALS_HELP) from None
    return api


def preflight(comps: list[Competition], api: Any = None) -> list[Preflight]:
    """Check each competition (credentials, rules, download size); one failure never stops the rest."""
    try:
        api = api or kaggle_api()
    except KaggleAccessError as exc:
        return [Preflight(c.id, _slug(c), exc.state, None, str(exc)) for c in comps]
    results = []
    for comp in comps:
        try:
            results.append(_preflight_one(api, comp))
        except KaggleAccessError as exc:
            results.append(Preflight(comp.id, _slug(comp), exc.state, None, str(exc)))
        except Exception as exc:  # noqa: BLE001 - reported per competition, the others go on
            results.append(Preflight(comp.id, _slug(comp), "error", None, f"{type(exc).__name__}: {exc}"))
    return results


def download_archive(
    comp: Competition, downloads: Path, *, quiet: bool = True, api: Any = None, force: bool = False
) -> Path:
    """Download (or resume, or reuse) ``<slug>.zip`` into ``downloads`` with the kaggle client; return it.

    ``force`` downloads it again even when a finished copy is there.
    """
    slug = _slug(comp)
    api = api or kaggle_api()
    downloads.mkdir(parents=True, exist_ok=True)
    with _access(comp):
        api.competition_download_files(
            slug, path=str(downloads), quiet=quiet, **({"force": True} if force else {})
        )
    archive = downloads / f"{slug}.zip"
    if not archive.is_file():
        found = sorted(p.name for p in downloads.iterdir())
        raise DataError(f"{comp.id}: the kaggle client finished but {archive} is missing (found {found})")
    return archive


def fetch_kaggle(
    comp: Competition,
    dest: Path,
    downloads: Path,
    *,
    refresh_checksum: bool = False,
    quiet: bool = True,
    api: Any = None,
    extract: bool = True,
) -> ArchiveDigest:
    """Download, verify and extract ``comp`` into ``dest`` (replaced atomically); return the archive's hashes.

    With ``refresh_checksum`` the archive's sha256 is recorded in the declaration instead of checked.
    With ``extract=False`` (the pipeline's fetch stage) the verified archive and extra files are *moved*
    from ``downloads`` into ``dest`` as they are, beside a ``fetched.json`` naming them: the raw data is
    stored once, as the archive, and DVC links it into its cache; the prepare stage extracts it for the
    duration of the prepare (:func:`mlebench.data.prepare.raw_tree`). Moved, not linked: the download
    folder must hold no writable path to a file DVC protects read-only.
    """
    archive = download_archive(comp, downloads, quiet=quiet, api=api)
    from tqdm import tqdm

    size = archive.stat().st_size
    with tqdm(
        total=size, desc=f"checking {archive.name}", unit="B", unit_scale=True, disable=None, leave=False
    ) as bar:
        actual, md5 = sha256_md5_file(archive, bar.update)
    expected = _source(comp).archive_sha256
    if refresh_checksum:
        record_archive_checksum(comp, actual)
    elif not expected:
        warnings.warn(
            f"{comp.id}: no archive_sha256 is recorded, so {archive.name} (sha256 {actual}) is not verified; "
            "`mlebench prepare --refresh-checksums` records it",
            stacklevel=2,
        )
    elif actual != expected:
        raise DataError(
            f"{comp.id}: {archive} has sha256 {actual}, but the declaration records {expected}. Delete the "
            "file to download it again, or run with --refresh-checksums if Kaggle changed the data."
        )
    extras = [download_extra(comp, extra, downloads) for extra in _source(comp).extra_files]
    with published(dest) as staging:
        if extract:
            extract_zip(archive, staging)
            for path in extras:
                shutil.copyfile(path, staging / path.name)
        else:
            for path in (archive, *extras):
                os.replace(path, staging / path.name)
            record = {"archive": archive.name, "sha256": actual, "extras": [p.name for p in extras]}
            write_json(staging / FETCH_RECORD, record)
    if (
        not extract
    ):  # the move kept the archive's inode and mtime: DVC takes this md5 instead of re-reading it
        record_md5s({dest / archive.name: md5})
    return ArchiveDigest(actual, md5)


def download_extra(comp: Competition, extra: ExtraFile, downloads: Path) -> Path:
    """Download ``extra`` into ``downloads`` once (kept, like the archive); check its sha256 if recorded."""
    target = downloads / extra.name
    if not target.is_file():
        partial = target.with_name(target.name + ".part")
        downloads.mkdir(parents=True, exist_ok=True)
        try:
            with urllib.request.urlopen(extra.url, timeout=300) as response, partial.open("wb") as out:
                shutil.copyfileobj(response, out, 1 << 20)
        except OSError as exc:
            partial.unlink(missing_ok=True)
            raise DataError(f"{comp.id}: downloading {extra.url} failed: {exc}") from exc
        partial.rename(target)
    actual = sha256_file(target)
    if not extra.sha256:
        warnings.warn(f"{comp.id}: {extra.name} has no sha256 recorded (actual {actual})", stacklevel=2)
    elif actual != extra.sha256:
        raise DataError(
            f"{comp.id}: {target} has sha256 {actual}, but the declaration records {extra.sha256}; delete "
            "the file to download it again"
        )
    return target


def record_archive_checksum(comp: Competition, sha256: str, root: Path | None = None) -> None:
    """Write ``source.archive_sha256`` into the competition's declaration, keeping the rest of the file."""
    path = declaration_path(comp.id, root)
    text = path.read_text(encoding="utf-8")
    line = f"  archive_sha256: {sha256}"
    if re.search(r"^  archive_sha256:.*$", text, flags=re.M):
        text = re.sub(r"^  archive_sha256:.*$", line, text, count=1, flags=re.M)
    else:
        text, n = re.subn(r"^(  slug: .*)$", lambda m: m.group(1) + "\n" + line, text, count=1, flags=re.M)
        if n != 1:
            raise ConfigError(f"{path}: no `source.slug:` line to put archive_sha256 after")
    path.write_text(text, encoding="utf-8")


def _source(comp: Competition) -> KaggleSource:
    if not isinstance(comp.source, KaggleSource):
        raise ConfigError(f"{comp.id}: source.kind is {comp.source.kind!r}, not 'kaggle'")
    return comp.source


def _slug(comp: Competition) -> str:
    return comp.source.slug if isinstance(comp.source, KaggleSource) else comp.id


def _preflight_one(api: Any, comp: Competition) -> Preflight:
    slug = _source(comp).slug
    with _access(comp):
        listed = api.competitions_list(search=slug)
        listed = listed if isinstance(listed, list) else listed.competitions or []  # 1.6 gives a list
        matches = [c for c in listed if c.ref.rstrip("/").rsplit("/", 1)[-1] == slug]
        if not matches:
            return Preflight(comp.id, slug, "not-found", None, f"no competition {slug!r} on Kaggle")
        size, token = 0, None
        while True:
            page = api.competition_list_files(slug, page_token=token, page_size=200)
            size += sum(_field(f, "total_bytes") or 0 for f in page.files or [])
            token = _field(page, "next_page_token")
            if not token:
                break
    if not _field(matches[0], "user_has_entered"):
        return Preflight(comp.id, slug, "rules-not-accepted", size, _rules_help(slug))
    return Preflight(comp.id, slug, "ready", size, "")


def _field(obj: object, name: str) -> Any:
    """Read a field of a client's answer: snake_case in kaggle 2.x, the API's camelCase in 1.6."""
    if hasattr(obj, name):
        return getattr(obj, name)
    head, *rest = name.split("_")
    return getattr(obj, head + "".join(word.title() for word in rest), None)


def http_status(exc: BaseException) -> int | None:
    """Return the HTTP status of a client error (2.x: requests' HTTPError; 1.6: its ApiException)."""
    status = getattr(getattr(exc, "response", None), "status_code", None)
    if status is None and type(exc).__name__ == "ApiException":
        status = getattr(exc, "status", None)
    return status if isinstance(status, int) else None


def _body_message(body: object) -> str:
    """Return the ``message`` of a JSON error body (kaggle 1.6's ApiException keeps the body, as bytes)."""
    import json

    try:
        return str(json.loads(body)["message"]) if isinstance(body, bytes | str) else ""
    except (ValueError, KeyError, TypeError):
        return ""


def _rules_help(slug: str) -> str:
    return f"accept the competition's rules at https://www.kaggle.com/c/{slug}/rules, then retry"


class _access:
    """Turn the client's HTTP errors into :class:`KaggleAccessError` with the state and what to do."""

    def __init__(self, comp: Competition) -> None:
        self.comp = comp

    def __enter__(self) -> None:
        return None

    def __exit__(self, kind: type | None, exc: BaseException | None, tb: object) -> bool:
        status = None if exc is None else http_status(exc)
        if status is None:
            return False
        slug = _slug(self.comp)
        message = _body_message(getattr(exc, "body", None)) or str(exc)
        if status == 401:
            raise KaggleAccessError(
                "bad-credentials", f"{self.comp.id}: Kaggle rejected the credentials ({message})"
            ) from exc
        if status == 403 and "accept" in message.lower():
            raise KaggleAccessError("rules-not-accepted", f"{self.comp.id}: {_rules_help(slug)}") from exc
        if status == 404:
            raise KaggleAccessError("not-found", f"{self.comp.id}: no Kaggle competition {slug!r}") from exc
        raise KaggleAccessError("error", f"{self.comp.id}: Kaggle answered HTTP {status}: {message}") from exc
