"""MLE-bench v1's helper functions (``mlebench.utils``), for harnesses that import them.

Part of the v1 face (:mod:`mlebench.registry`, :mod:`mlebench.grade`, :mod:`mlebench.grade_helpers`): it
sits on top of the layers and nothing below imports it. The names and their behaviour are v1's.
"""

from __future__ import annotations

import difflib
import importlib
import json
import logging
import os
import time
import uuid
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pandas as pd
import yaml


def purple(text: str) -> str:
    """Wrap ``text`` in the terminal codes for bold purple."""
    return f"\033[1;35m{text}\033[0m"


def get_logger(name: str, level: int = logging.INFO, filename: Path | None = None) -> logging.Logger:
    """Return the named logger, configuring the root logger as v1 does (on stderr unless ``filename``)."""
    logging.basicConfig(
        level=level, format="[%(asctime)s] [%(filename)s:%(lineno)d] %(message)s", filename=filename
    )
    return logging.getLogger(name)


logger = get_logger(__name__)


def get_timestamp() -> str:
    """Now in UTC as ``YYYY-MM-DDTHH-MM-SS-<zone>``, the stamp v1 puts in report file names."""
    return time.strftime("%Y-%m-%dT%H-%M-%S-%Z", time.gmtime())


def read_jsonl(file_path: str | Path, skip_commented_out_lines: bool = False) -> list[dict]:
    """Read one JSON value per line; with ``skip_commented_out_lines``, skip blank, ``#`` and ``//`` lines."""
    out = []
    with open(file_path, encoding="utf-8") as fh:
        for line in fh:
            text = line.strip()
            if skip_commented_out_lines and (not text or text.startswith(("#", "//"))):
                continue
            out.append(json.loads(line))
    return out


_ROUND_TRIP = {} if int(pd.__version__.split(".")[0]) >= 3 else {"float_precision": "round_trip"}
"""pandas before 3 needs ``float_precision="round_trip"`` to read floats exactly; pandas 3 does by default
and deprecates the argument."""


def read_csv(*args: Any, **kwargs: Any) -> pd.DataFrame:
    """Read a CSV with pandas, floats exact (v1's ``round_trip``); an empty file gives an empty frame."""
    try:
        return pd.read_csv(*args, **{**_ROUND_TRIP, **kwargs})
    except pd.errors.EmptyDataError:
        logger.warning(f"CSV file empty! {args[0] if args else kwargs.get('filepath_or_buffer')}")
        return pd.DataFrame()


def load_answers(path_to_answers: Path) -> Any:
    """Read an answers file: a ``.csv`` as a frame (:func:`read_csv`), a ``.jsonl`` as a list of dicts."""
    path = Path(path_to_answers)
    if path.suffix == ".csv":
        return read_csv(path)
    if path.suffix == ".jsonl":
        return read_jsonl(path)
    raise ValueError(f"Unsupported file format for answers: {path}")


def load_yaml(fpath: Path) -> dict:
    """Read a ``.yaml`` file."""
    fpath = Path(fpath)
    if not fpath.is_file() or fpath.suffix != ".yaml":
        raise FileNotFoundError(f"expected a YAML file at {fpath}")
    with open(fpath, encoding="utf-8") as fh:
        return yaml.safe_load(fh)


def import_fn(fn_import_string: str) -> Callable:
    """Import ``package.module:function`` and return the function."""
    module_name, fn_name = fn_import_string.split(":")
    return getattr(importlib.import_module(module_name), fn_name)


def get_module_dir() -> Path:
    """Return the installed ``mlebench`` package's folder."""
    return Path(__file__).parent.resolve()


def get_repo_dir() -> Path:
    """Return the folder holding the ``mlebench`` package (the checkout, for an editable install)."""
    return get_module_dir().parent


def get_runs_dir() -> Path:
    """Return v1's folder of runs: ``runs/`` beside the package (the checkout's, for an editable install).

    The pipeline's own runs are ``runs/<agent>/<id>/<seed>`` there; v1's run folders are named by run id.
    """
    return get_repo_dir() / "runs"


def generate_run_id(competition_id: str, agent_id: str, run_group: str | None = None) -> str:
    """Return a run id: ``<competition>_<uuid4>`` in a group, else ``<stamp>_<competition>_<agent>_<hex8>``.

    A run group's name already holds the time and the agent, so ids inside one carry only the competition.
    """
    unique = str(uuid.uuid4())
    if run_group:
        return f"{competition_id}_{unique}"
    return f"{get_timestamp()}_{competition_id}_{agent_id}_{unique[:8]}"


def create_run_dir(
    competition_id: str | None = None, agent_id: str | None = None, run_group: str | None = None
) -> Path:
    """Create and return a new run folder in :func:`get_runs_dir` (inside ``run_group`` when given).

    With both ``competition_id`` and ``agent_id`` it is named by :func:`generate_run_id`, else by a bare
    uuid4. A folder that exists already is an error, never reused.
    """
    for name, value in (("competition_id", competition_id), ("agent_id", agent_id), ("run_group", run_group)):
        if value is not None and not isinstance(value, str):
            raise TypeError(f"{name} must be a string or None, got {type(value).__name__}")
    run_id = str(uuid.uuid4())
    if competition_id and agent_id:
        run_id = generate_run_id(competition_id, agent_id, run_group)
    run_dir = get_runs_dir() / run_group / run_id if run_group else get_runs_dir() / run_id
    run_dir.mkdir(parents=True, exist_ok=False)
    return run_dir


COMPRESSED = (".zip", ".tar", ".gz", ".tgz", ".tar.gz", ".rar", ".7z")
"""The suffixes v1 calls compressed; :func:`extract` and :func:`compress` handle ``.zip`` and ``.7z``."""


def is_compressed(fpath: Path) -> bool:
    """Whether the file's (last) suffix marks an archive or a compressed file (:data:`COMPRESSED`)."""
    return Path(fpath).suffix in COMPRESSED


def compress(src: Path, compressed: Path, exist_ok: bool = False) -> None:
    """Pack every file under the folder ``src`` into ``compressed`` (``.zip`` or ``.7z``), named from ``src``.

    The zip is this project's reproducible one (:func:`mlebench.data.archives.write_zip`: sorted members,
    fixed dates); a ``.7z`` is written with py7zr, as v1 writes it. An existing ``compressed`` is an error
    unless ``exist_ok``.
    """
    from mlebench.data.archives import write_zip

    src, compressed = Path(src), Path(compressed)
    if not src.is_dir():
        raise NotADirectoryError(f"compress: the source {src} is not a folder")
    if compressed.exists() and not exist_ok:
        raise FileExistsError(f"compress: {compressed} exists already; pass exist_ok=True to replace it")
    files = sorted(p for p in src.rglob("*") if p.is_file())
    if compressed.suffix == ".zip":
        write_zip(files, src, compressed)
    elif compressed.suffix == ".7z":
        import py7zr

        with py7zr.SevenZipFile(compressed, "w") as archive:
            for path in files:
                archive.write(path, arcname=path.relative_to(src).as_posix())
    else:
        raise NotImplementedError(f"Unsupported compression format: `{compressed.suffix}` (use .zip or .7z)")


def extract(
    compressed: Path, dst: Path, recursive: bool = False, already_extracted: set | None = None
) -> None:
    """Extract the ``.zip`` or ``.7z`` file ``compressed`` into ``dst``.

    With ``recursive``, each archive the extraction leaves directly in ``dst`` is extracted there too, and
    so on (each file once: ``already_extracted`` collects them). Zip members that would land outside
    ``dst`` are refused (:func:`mlebench.data.archives.extract_zip`), as are 7z ones (py7zr).
    """
    from mlebench.data.archives import extract_zip

    compressed, dst = Path(compressed), Path(dst)
    if not compressed.is_file():
        raise FileNotFoundError(f"extract: {compressed} is not a file")
    if not is_compressed(compressed):
        raise ValueError(f"extract: {compressed} is not compressed (suffixes: {', '.join(COMPRESSED)})")
    if compressed.suffix == ".zip":
        extract_zip(compressed, dst)
    elif compressed.suffix == ".7z":
        import py7zr

        with py7zr.SevenZipFile(compressed, mode="r") as archive:
            archive.extractall(dst)
    else:
        raise NotImplementedError(f"Unsupported compression format: `{compressed.suffix}` (.zip and .7z are)")
    done = set() if already_extracted is None else already_extracted
    done.add(compressed)
    if recursive:
        nested = {p for p in set(dst.iterdir()) - done if is_compressed(p)}
        done.update(nested)
        for path in sorted(nested):
            extract(path, path.parent, recursive=True, already_extracted=done)


def get_path_to_callable(callable: Callable) -> Path:  # noqa: A002 - v1's parameter name
    """Return the file that defines ``callable``."""
    import inspect

    return Path(inspect.getfile(callable)).resolve()


def is_empty(dir: Path) -> bool:  # noqa: A002 - v1's parameter name
    """Whether the folder ``dir`` has no entries (it must exist)."""
    if not Path(dir).is_dir():
        raise NotADirectoryError(f"Expected a directory, but got `{dir}`.")
    return not any(Path(dir).iterdir())


def in_ci() -> bool:
    """Whether this runs in GitHub Actions."""
    return os.environ.get("GITHUB_ACTIONS") == "true"


def get_diff(d: dict, other_d: dict, fromfile: str = "d", tofile: str = "other_d") -> str:
    """Return a unified diff of two mappings, each dumped as sorted YAML."""
    left = yaml.dump(d, sort_keys=True).splitlines()
    right = yaml.dump(other_d, sort_keys=True).splitlines()
    return "\n".join(difflib.unified_diff(left, right, fromfile=fromfile, tofile=tofile, lineterm=""))


def authenticate_kaggle_api() -> Any:
    """Return an authenticated Kaggle client, checked with one cheap call, as v1 does.

    Its HTTP errors are ``kaggle.rest.ApiException`` on every kaggle release, as callers written for v1's
    pinned client (1.6) expect (:mod:`mlebench.data.kaggle_v1`). Any failure, missing credentials
    included, is a PermissionError saying what went wrong and where credentials go.
    """
    from mlebench.data.kaggle_source import CREDENTIALS_HELP, kaggle_api
    from mlebench.data.kaggle_v1 import v1_client

    try:
        api = v1_client(kaggle_api())
        api.competitions_list()
    except Exception as exc:
        raise PermissionError(
            f"Kaggle authentication failed: {type(exc).__name__}: {str(exc).strip()}"
            + ("" if CREDENTIALS_HELP in str(exc) else f"; {CREDENTIALS_HELP}")
        ) from exc
    return api


__all__ = [
    "authenticate_kaggle_api",
    "compress",
    "create_run_dir",
    "extract",
    "generate_run_id",
    "get_diff",
    "get_logger",
    "get_module_dir",
    "get_path_to_callable",
    "get_repo_dir",
    "get_runs_dir",
    "get_timestamp",
    "import_fn",
    "in_ci",
    "is_compressed",
    "is_empty",
    "load_answers",
    "load_yaml",
    "purple",
    "read_csv",
    "read_jsonl",
]
