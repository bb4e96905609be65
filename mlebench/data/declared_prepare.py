"""The generic prepare: a competition's ``prepare:`` block, done, where its folder has no ``prepare.py``.

Most competitions' prepare is the same few steps: read a raw table, split it as the ``split:`` block says,
write the train side, the test side without its answers, the answers and a sample submission of one value,
and copy the files that follow their rows. The block declares those steps
(:class:`mlebench_spec.declarations.DeclaredPrepare`, documented in ``competitions/README.md``); a
``prepare.py`` is left only where a prepare computes something (a renumbering, a one-hot encoding, a random
sample submission, a re-zipped folder).

Every CSV goes through :func:`mlebench.data.writers.write_csv` and every file is linked or copied byte for
byte (:func:`mlebench.data.writers.link_or_copy`), so a declaration gives the bytes the ``prepare.py`` it
replaced gave.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pandas as pd

from mlebench.data.splitting import split_frame
from mlebench.data.writers import link_or_copy, write_csv
from mlebench_spec.declarations import Competition, PreparedCsv, PreparedTable
from mlebench_spec.errors import ConfigError, DataError

__all__ = ["prepare_declared"]


def prepare_declared(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from ``raw`` as ``comp.prepare`` declares (module docstring)."""
    spec = comp.prepare
    if spec is None:
        raise ConfigError(f"{comp.folder}: no prepare.py and no prepare: block in competition.yaml")
    folders = {"public": public, "private": private}
    tables = {name: _read(raw, table) for name, table in spec.tables.items()}
    if spec.split is not None:
        tables["train"], tables["test"] = split_frame(tables[spec.split], comp.split)
    for path, csv in spec.write.items():
        write_csv(_columns(tables[csv.table], csv, path), _target(folders, path))
    for source, path in spec.copy.items():
        _copy(raw / source, _target(folders, path))
    for files in spec.row_files:
        for side in ("train", "test"):
            for value in tables[side][files.column]:
                template = getattr(files, side)
                _copy(raw / files.source.format(value), _target(folders, template.format(value)))


def _read(raw: Path, table: PreparedTable) -> pd.DataFrame:
    if table.text_columns == "all":
        return pd.read_csv(raw / table.file, dtype=str, keep_default_na=False)
    return pd.read_csv(raw / table.file, dtype=dict.fromkeys(table.text_columns, str) or None)


def _columns(frame: pd.DataFrame, csv: PreparedCsv, path: str) -> pd.DataFrame:
    missing = [c for c in [*csv.keep, *csv.drop, *csv.columns_from.values()] if c not in frame.columns]
    if missing:
        raise DataError(
            f"competition.yaml prepare.write.{path}: table {csv.table!r} has no column(s) {missing} "
            f"(it has {list(frame.columns)})"
        )
    chosen = frame[csv.keep] if csv.keep else frame.drop(columns=csv.drop)
    if csv.columns_from:
        chosen = chosen.assign(**{new: frame[old] for new, old in csv.columns_from.items()})
    return chosen.assign(**csv.set) if csv.set else chosen


def _target(folders: dict[str, Path], path: str) -> Path:
    side, _, rest = path.partition("/")
    return folders[side] / rest


def _copy(source: Path, dest: Path) -> None:
    if source.is_dir():
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(source, dest)
    else:
        link_or_copy(source, dest)
