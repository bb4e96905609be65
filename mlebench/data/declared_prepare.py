"""The generic prepare: a competition's ``prepare:`` block, done, where its folder has no ``prepare.py``.

Most competitions' prepare is the same few steps: read a raw table, split it as the ``split:`` block says,
write the train side, the test side without its answers, the answers and a sample submission of one value,
and copy the files that follow their rows. The block declares those steps, and the computations two or
more prepares shared: ids renumbered after the split, one-hot answers, seeded random sample submissions and
a series classification from its source split (:class:`mlebench_spec.declarations.DeclaredPrepare`,
documented in ``competitions/README.md``). A ``prepare.py`` is left only where a prepare computes something
of its own (a re-zipped folder, a table listed from a folder tree, per-batch accuracies, R data).

Every CSV goes through :func:`mlebench.data.writers.write_csv` and every file is linked or copied byte for
byte (:func:`mlebench.data.writers.link_or_copy`), so a declaration gives the bytes the ``prepare.py`` it
replaced gave.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from mlebench.data.splitting import split_frame
from mlebench.data.timeseries import read_ts, write_series_classification
from mlebench.data.writers import link_or_copy, one_hot, write_csv
from mlebench_spec.declarations import Competition, PreparedCsv, PreparedTable, RandomDraws
from mlebench_spec.errors import ConfigError, DataError

__all__ = ["prepare_declared"]


def prepare_declared(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from ``raw`` as ``comp.prepare`` declares (module docstring)."""
    spec = comp.prepare
    if spec is None:
        raise ConfigError(f"{comp.folder}: no prepare.py and no prepare: block in competition.yaml")
    folders = {"public": public, "private": private}
    if spec.series is not None:
        series = spec.series
        channels = len(series.channel_columns)
        write_series_classification(
            read_ts(raw / series.train, channels, series.length),
            read_ts(raw / series.test, channels, series.length),
            classes=series.classes,
            label_column=series.label_column,
            channel_columns=series.channel_columns,
            seed=comp.split.seed,
            public=public,
            private=private,
        )
    tables = {name: _read(raw, table) for name, table in spec.tables.items()}
    if spec.split is not None:
        tables["train"], tables["test"] = split_frame(tables[spec.split], comp.split)
    if spec.renumber is not None:
        column, start, n_train = spec.renumber.column, spec.renumber.start, len(tables["train"])
        _require(tables[spec.split], [column], f"prepare.renumber: table {spec.split!r}")
        tables["train"] = tables["train"].assign(**{column: np.arange(start, start + n_train)})
        after = start + n_train
        tables["test"] = tables["test"].assign(**{column: np.arange(after, after + len(tables["test"]))})
    for path, csv in spec.write.items():
        write_csv(_columns(tables[csv.table], csv, path, comp.split.seed), _target(folders, path))
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


def _columns(frame: pd.DataFrame, csv: PreparedCsv, path: str, split_seed: int) -> pd.DataFrame:
    where = f"competition.yaml prepare.write.{path}"
    encoded = [csv.one_hot.column] if csv.one_hot else []
    _require(
        frame, [*csv.keep, *csv.drop, *csv.columns_from.values(), *encoded], f"{where}: table {csv.table!r}"
    )
    chosen = frame[csv.keep] if csv.keep else frame.drop(columns=csv.drop)
    if csv.columns_from:
        chosen = chosen.assign(**{new: frame[old] for new, old in csv.columns_from.items()})
    if csv.one_hot:
        chosen = chosen.assign(**one_hot(frame[csv.one_hot.column], csv.one_hot.classes, f"{where}.one_hot"))
    if csv.set:
        chosen = chosen.assign(**csv.set)
    if csv.random:
        chosen = chosen.assign(**{c: _draw(d, len(frame), split_seed) for c, d in csv.random.items()})
    return chosen


def _require(frame: pd.DataFrame, columns: list[str], where: str) -> None:
    missing = [c for c in columns if c not in frame.columns]
    if missing:
        raise DataError(f"{where} has no column(s) {missing} (it has {list(frame.columns)})")


def _draw(draws: RandomDraws, n: int, split_seed: int) -> np.ndarray:
    """Return ``n`` draws as ``draws`` declares (its own generator, seeded by its seed or the split's)."""
    seed = split_seed if draws.seed is None else draws.seed
    if draws.generator == "RandomState":
        legacy = np.random.RandomState(seed)
        integers, uniform = legacy.randint, legacy.uniform
    else:
        rng = np.random.default_rng(seed)
        integers, uniform = rng.integers, rng.uniform
    if draws.draw == "integers":
        values = integers(int(draws.low), int(draws.high), size=n)
    else:
        values = uniform(draws.low, draws.high, n)
    return values if draws.round is None else values.round(draws.round)


def _target(folders: dict[str, Path], path: str) -> Path:
    side, _, rest = path.partition("/")
    return folders[side] / rest


def _copy(source: Path, dest: Path) -> None:
    if source.is_dir():
        dest.parent.mkdir(parents=True, exist_ok=True)
        shutil.copytree(source, dest)
    else:
        link_or_copy(source, dest)
