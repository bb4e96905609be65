"""Loading a competition folder's own Python script (``prepare.py``, a data generator) as a module.

The folder is a DVC dependency, so the load writes no ``__pycache__`` beside the script; a script that fails
to import is a :class:`ConfigError` naming it.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

from mlebench_spec.errors import ConfigError


def load_script(script: Path) -> ModuleType:
    """Import ``script`` under a name of its own, leaving nothing beside it."""
    name = "mlebench_competition_" + "".join(
        c if c.isalnum() else "_" for c in script.parent.name + "_" + script.stem
    )
    spec = importlib.util.spec_from_file_location(name, script)
    if spec is None or spec.loader is None:
        raise ConfigError(f"{script}: cannot be loaded as a Python module")
    module = importlib.util.module_from_spec(spec)
    # No __pycache__ beside the script: the competition folder is a DVC dependency and must not change.
    saved, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        spec.loader.exec_module(module)
    except Exception as exc:
        raise ConfigError(f"{script}: importing it failed: {type(exc).__name__}: {exc}") from exc
    finally:
        sys.dont_write_bytecode = saved
    return module


__all__ = ["load_script"]
