"""Kaggle without Kaggle: competition fixtures, and a stand-in server the real ``kaggle`` client can talk to.

A competition's ``fixture.py`` writes a small download shaped like the real one (the same file names,
columns and formats, the files Kaggle's zip holds), from a seeded generator:

    def make_download(dest: Path, rng: numpy.random.Generator) -> None: ...

It may also set ``SPLIT = {...}``: overrides of the declaration's ``split:`` block that fit a small
fixture (say, ``test_size: 40`` where the real split holds out 5,000 images). Its ``grading_inputs``
function serves the grading benchmark instead (see :mod:`authoring.grading_inputs`).
"""

from __future__ import annotations

import base64
import hashlib
import io
import json
import shutil
import tempfile
import types
import zipfile
from dataclasses import dataclass, field
from email.utils import formatdate
from http.server import ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import numpy as np
from PIL import Image

from authoring.loopback import LoopbackServer, QuietHandler
from mlebench.data.archives import write_zip
from mlebench.data.scripts import load_script
from mlebench_spec.declarations import Competition
from mlebench_spec.errors import ConfigError

__all__ = [
    "StandinKaggle",
    "fixture_competition",
    "image_bytes",
    "load_fixture",
    "write_fixture_archive",
    "write_fixture_download",
]

FIXTURE_SEED = 0


def image_bytes(rng: np.random.Generator, size: tuple[int, int] = (8, 8), fmt: str = "JPEG") -> bytes:
    """Return a small random RGB image encoded as ``fmt`` (``JPEG`` or ``PNG``), for fixtures."""
    pixels = rng.integers(0, 256, size=(size[1], size[0], 3), dtype=np.uint8)
    out = io.BytesIO()
    Image.fromarray(pixels).save(out, format=fmt, **({"quality": 50} if fmt == "JPEG" else {}))
    return out.getvalue()


def load_fixture(comp: Competition) -> types.ModuleType:
    """Import ``competitions/<id>/fixture.py`` by path."""
    script = comp.folder / "fixture.py"
    if not script.is_file():
        raise ConfigError(f"{comp.id}: no fixture.py in {comp.folder}")
    module = load_script(script)
    if not callable(getattr(module, "make_download", None)):
        raise ConfigError(f"{script}: defines no function 'make_download'")
    return module


def fixture_competition(comp: Competition) -> Competition:
    """``comp`` with the split overrides its fixture declares (``SPLIT``), for small test data."""
    overrides = getattr(load_fixture(comp), "SPLIT", None) or {}
    if not overrides:
        return comp
    split = comp.split.model_validate({**comp.split.model_dump(), **overrides})
    return comp.model_copy(update={"split": split})


def write_fixture_download(comp: Competition, dest: Path) -> Path:
    """Write ``comp``'s fixture download into the new folder ``dest`` and return it."""
    dest.mkdir(parents=True)
    load_fixture(comp).make_download(dest, np.random.default_rng(FIXTURE_SEED))
    return dest


def write_fixture_archive(comp: Competition, archive: Path) -> Path:
    """Zip ``comp``'s fixture download into ``archive`` (like Kaggle's ``<slug>.zip``) and return it.

    Files the declaration fetches from elsewhere (``source.extra_files``) stay out of the archive; they
    are left beside it, under their names, for the server to serve at their own URLs.
    """
    extra = {e.name for e in getattr(comp.source, "extra_files", [])}
    with tempfile.TemporaryDirectory(prefix=f"mlebench-fixture-{comp.id}-") as tmp:
        folder = write_fixture_download(comp, Path(tmp) / "download")
        archive.parent.mkdir(parents=True, exist_ok=True)
        for name in extra:
            shutil.move(folder / name, archive.parent / name)
        write_zip([p for p in folder.rglob("*") if p.is_file()], folder, archive)
    return archive


@dataclass
class StandinKaggle(LoopbackServer):
    """A loopback HTTP server answering the Kaggle API calls the ``kaggle`` client makes to download data.

    The client is pointed at it by its own local-endpoint setting (``KAGGLE_API_ENVIRONMENT=LOCALHOST``,
    which means ``http://localhost``) and an HTTP proxy variable naming this server's port, so test
    sessions running side by side never fight over a fixed port. Served: ``ListCompetitions`` (with
    ``userHasEntered`` from ``accepted``), ``ListDataFiles`` (the archive's members and sizes),
    ``DownloadDataFiles`` (a redirect to the archive, served with ``ETag``, ``Last-Modified`` and byte
    ranges, as Kaggle's storage does) and ``DownloadDataFile`` (a redirect to one member of it). Wrong
    credentials get 401, unaccepted rules 403 (with Kaggle's "You must accept" message), unknown slugs 404.
    The same calls are served in the REST form of the 1.6 client MLE-bench v1 pins (``GET /api/v1/
    competitions/list``, ``competitions/data/list/<slug>``, ``competitions/data/download-all/<slug>``,
    ``competitions/data/download/<slug>/<file>``), which that client reaches through ``KAGGLE_API_ENDPOINT``
    and its ``KAGGLE_PROXY`` setting.
    ``truncate`` cuts the first full download of a slug after that many bytes, to exercise resuming.
    ``GetKernel`` (what ``kaggle kernels pull owner/slug`` asks) serves ``kernels``: ``owner/slug`` → its
    source (a notebook's JSON, or a script's text, by ``kernel_types``, default ``notebook``); refs in
    ``private_kernels`` get 403, as Kaggle answers for some of v1's references, and unknown ones 404.
    """

    archives: dict[str, Path]
    accepted: set[str] = field(default_factory=set)
    username: str = "standin-user"
    key: str = "standin-key"
    truncate: dict[str, int] = field(default_factory=dict)
    extras: dict[str, Path] = field(default_factory=dict)  # any other URL whose last part is a key
    kernels: dict[str, str] = field(default_factory=dict)  # owner/slug -> source
    kernel_types: dict[str, str] = field(default_factory=dict)  # owner/slug -> notebook | script
    private_kernels: set[str] = field(default_factory=set)
    requests: list[tuple[str, str, str]] = field(default_factory=list)  # (method, path, range header)
    _server: ThreadingHTTPServer | None = None

    def client_env(self, *, username: str | None = None, key: str | None = None) -> dict[str, str]:
        """Environment variables that point the real ``kaggle`` client at this server."""
        proxy = f"http://127.0.0.1:{self.port}"
        return {
            "KAGGLE_API_ENVIRONMENT": "LOCALHOST",
            "KAGGLE_USERNAME": self.username if username is None else username,
            "KAGGLE_KEY": self.key if key is None else key,
            "KAGGLE_API_ENDPOINT": "http://localhost/api/v1",  # kaggle 1.6 (v1's pin); 2.x ignores it
            "KAGGLE_PROXY": proxy,  # kaggle 1.6 does not read HTTP_PROXY
            "HTTP_PROXY": proxy,
            "http_proxy": proxy,
            "NO_PROXY": "",
            "no_proxy": "",
        }


class _Handler(QuietHandler):
    standin: StandinKaggle

    def do_POST(self) -> None:  # noqa: N802 - http.server's naming
        path = urlsplit(self.path).path
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        self.standin.requests.append(("POST", path, ""))
        if not self._authorized():
            return self._json(401, {"code": 401, "message": "Unauthenticated"})
        request = json.loads(body or b"{}")
        call = path.rsplit("/", 1)[-1]
        if call == "ListCompetitions":
            return self._json(200, {"competitions": self._competitions(request.get("search", ""))})
        if call == "GetKernel":
            return self._kernel(f"{request.get('userName', '')}/{request.get('kernelSlug', '')}")
        slug = request.get("competitionName", "")
        archive = self.standin.archives.get(slug)
        if archive is None:
            return self._json(404, {"code": 404, "message": f"Competition '{slug}' not found"})
        if call == "ListDataFiles":
            with zipfile.ZipFile(archive) as zf:
                files = [{"name": i.filename, "totalBytes": i.file_size} for i in zf.infolist()]
            return self._json(200, {"files": files, "nextPageToken": ""})
        if call == "DownloadDataFiles":
            return self._download(slug, "")
        if call == "DownloadDataFile":
            return self._download(slug, request.get("fileName", ""))
        return self._json(404, {"code": 404, "message": f"no such call {call!r} in the stand-in"})

    def _download(self, slug: str, member: str) -> None:
        """Answer a download call: 403 until the rules are accepted, else a redirect to the storage URL."""
        if slug not in self.standin.accepted:
            message = "You must accept this competition's rules before you'll be able to download files."
            return self._json(403, {"code": 403, "message": message})
        if member:
            with zipfile.ZipFile(self.standin.archives[slug]) as zf:
                if member not in zf.namelist():
                    return self._json(404, {"code": 404, "message": f"no file {member!r} in {slug}"})
        self.send_response(302)
        where = f"{slug}/{member}" if member else f"{slug}.zip"
        self.send_header("Location", f"http://localhost/download/{where}")
        self.send_header("Content-Length", "0")
        self.end_headers()
        return None

    def _rest(self, path: str) -> None:
        """Answer kaggle 1.6's REST form of the calls (``GET /api/v1/...``), authenticated the same way."""
        if not self._authorized():
            return self._json(401, {"code": 401, "message": "Unauthenticated"})
        call = path.removeprefix("/api/v1/")
        if call == "competitions/list":
            query = dict(parse_qsl(urlsplit(self.path).query))
            listed = self._competitions(query.get("search", ""))
            return self._send(200, json.dumps([{**c, "tags": []} for c in listed]).encode())
        for prefix in (
            "competitions/data/list/",
            "competitions/data/download-all/",
            "competitions/data/download/",
        ):
            if call.startswith(prefix):
                slug, _, member = call.removeprefix(prefix).partition("/")
                if slug not in self.standin.archives:
                    return self._json(404, {"code": 404, "message": f"Competition '{slug}' not found"})
                if prefix.endswith("list/"):
                    with zipfile.ZipFile(self.standin.archives[slug]) as zf:
                        files = [
                            {"name": i.filename, "totalBytes": i.file_size, "ref": i.filename}
                            for i in zf.infolist()
                        ]
                    return self._json(200, {"files": files, "nextPageToken": ""})
                return self._download(slug, member)
        return self._json(404, {"code": 404, "message": f"no such call {call!r} in the stand-in"})

    def do_GET(self) -> None:  # noqa: N802 - http.server's naming
        path = urlsplit(self.path).path
        ranged = self.headers.get("Range", "")
        self.standin.requests.append(("GET", path, ranged))
        if path.startswith("/api/v1/"):
            return self._rest(path)
        slug, _, member = path.removeprefix("/download/").partition("/")
        slug = slug.removesuffix(".zip")
        archive = self.standin.archives.get(slug) if path.startswith("/download/") else None
        if archive is not None and member:
            with zipfile.ZipFile(archive) as zf:
                data = zf.read(member) if member in zf.namelist() else None
        else:
            archive = archive or self.standin.extras.get(path.rsplit("/", 1)[-1])
            data = archive.read_bytes() if archive is not None else None
        if archive is None or data is None:
            return self._json(404, {"code": 404, "message": "not found"})
        etag = '"' + hashlib.sha256(data).hexdigest()[:32] + '"'
        start = 0
        if ranged.startswith("bytes=") and self.headers.get("If-Range", etag) == etag:
            start = int(ranged[len("bytes=") :].split("-")[0])
        if start >= len(data) > 0:
            self.send_response(416)
            self.send_header("Content-Range", f"bytes */{len(data)}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return None
        self.send_response(206 if start else 200)
        self.send_header("Content-Type", "application/zip")
        self.send_header("Content-Length", str(len(data) - start))
        self.send_header("Accept-Ranges", "bytes")
        self.send_header("ETag", etag)
        self.send_header("Last-Modified", formatdate(archive.stat().st_mtime, usegmt=True))
        if start:
            self.send_header("Content-Range", f"bytes {start}-{len(data) - 1}/{len(data)}")
        self.end_headers()
        cut = self.standin.truncate.pop(slug, None) if not (start or member) else None
        self.wfile.write(data[start:] if cut is None else data[:cut])
        if cut is not None:
            self.wfile.flush()
            self.close_connection = True
        return None

    def _authorized(self) -> bool:
        header = self.headers.get("Authorization", "")
        if not header.startswith("Basic "):
            return False
        user, _, key = base64.b64decode(header[len("Basic ") :]).decode().partition(":")
        return (user, key) == (self.standin.username, self.standin.key)

    def _kernel(self, ref: str) -> None:
        if ref in self.standin.private_kernels:
            return self._json(403, {"code": 403, "message": "Permission 'kernels.get' was denied"})
        if ref not in self.standin.kernels:
            return self._json(404, {"code": 404, "message": f"Kernel '{ref}' not found"})
        owner, slug = ref.split("/", 1)
        kind = self.standin.kernel_types.get(ref, "notebook")
        blob = {"source": self.standin.kernels[ref], "language": "python", "kernelType": kind, "slug": slug}
        metadata = {"id": 1, "ref": ref, "title": slug, "author": owner, "slug": slug, "language": "python"}
        return self._json(200, {"metadata": {**metadata, "kernelType": kind}, "blob": blob})

    def _competitions(self, search: str) -> list[dict[str, object]]:
        return [
            {
                "ref": f"https://www.kaggle.com/competitions/{slug}",
                "title": slug,
                "userHasEntered": slug in self.standin.accepted,
            }
            for slug in sorted(self.standin.archives)
            if search.lower() in slug.lower()
        ]

    def _json(self, status: int, payload: dict[str, object]) -> None:
        self._send(status, json.dumps(payload).encode())

    def _send(self, status: int, data: bytes) -> None:
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main(argv: list[str] | None = None) -> int:
    """``python -m authoring.kaggle_standin [-s SET | -c ID ...]``: serve fixtures until interrupted.

    Prints ``export`` lines for the environment that points the ``kaggle`` client (and so
    ``mlebench prepare`` and ``dvc repro``) at the server; run it in the background and source them.
    """
    import argparse
    import time

    from mlebench.planning.plan import named_set, resolve_set
    from mlebench_spec.declarations import KaggleSource, load_competition

    parser = argparse.ArgumentParser(description="Serve competition fixtures as a stand-in Kaggle API.")
    group = parser.add_mutually_exclusive_group(required=True)
    group.add_argument("-c", "--competition-id", action="append", metavar="ID")
    group.add_argument("-s", "--competition-set", metavar="NAME")
    args = parser.parse_args(argv)
    ids = args.competition_id or resolve_set(named_set(args.competition_set))
    comps = [c for c in map(load_competition, ids) if isinstance(c.source, KaggleSource)]
    folder = Path(tempfile.mkdtemp(prefix="mlebench-standin-"))
    archives = {c.source.slug: write_fixture_archive(c, folder / f"{c.source.slug}.zip") for c in comps}
    with StandinKaggle(archives, accepted=set(archives)) as server:
        for name, value in server.client_env().items():
            print(f"export {name}={value!r}", flush=True)
        print(f"# serving {len(archives)} fixture(s) from {folder}; Ctrl-C stops", flush=True)
        try:
            while True:
                time.sleep(3600)
        except KeyboardInterrupt:
            return 0


if __name__ == "__main__":
    raise SystemExit(main())


StandinKaggle.handler = _Handler  # the handler class comes after the stand-in
