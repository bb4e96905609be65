"""Kaggle without Kaggle: competition fixtures, and a stand-in server the real ``kaggle`` client can talk to.

A competition's ``fixture.py`` writes a small download shaped like the real one (the same file names,
columns and formats, the files Kaggle's zip holds), from a seeded generator:

    def make_download(dest: Path, rng: numpy.random.Generator) -> None: ...

It may also set ``SPLIT = {...}``: overrides of the declaration's ``split:`` block that fit a small
fixture (say, ``test_size: 40`` where the real split holds out 5,000 images).
"""

from __future__ import annotations

import types
from pathlib import Path

import numpy as np

from .declarations import Competition
from .errors import ConfigError
from .prepare import load_script

__all__ = ["fixture_competition", "load_fixture", "write_fixture_download"]

FIXTURE_SEED = 0


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
