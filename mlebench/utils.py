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
    """Return an authenticated Kaggle client; raise PermissionError saying where credentials go."""
    from mlebench.data.kaggle_source import kaggle_api
    from mlebench_spec.errors import ConfigError

    try:
        return kaggle_api()
    except ConfigError as exc:
        raise PermissionError(f"Kaggle authentication failed: {exc}") from exc


__all__ = [
    "authenticate_kaggle_api",
    "get_diff",
    "get_logger",
    "get_module_dir",
    "get_repo_dir",
    "get_timestamp",
    "import_fn",
    "in_ci",
    "is_empty",
    "load_answers",
    "load_yaml",
    "purple",
    "read_csv",
    "read_jsonl",
]
