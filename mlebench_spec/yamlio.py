"""Strict YAML: duplicate keys are errors, custom tags are refused, files are named in every message."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ruamel.yaml import YAML
from ruamel.yaml.constructor import DuplicateKeyError
from ruamel.yaml.error import YAMLError

from mlebench_spec.errors import ConfigError


def load_yaml(path: Path) -> Any:
    """Parse ``path`` as plain YAML (safe loader, duplicate keys rejected)."""
    yaml = YAML(typ="safe", pure=True)
    yaml.allow_duplicate_keys = False
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError as exc:
        raise ConfigError(f"{path}: file not found") from exc
    try:
        return yaml.load(text)
    except DuplicateKeyError as exc:
        raise ConfigError(f"{path}: duplicate key: {_one_line(exc)}") from exc
    except YAMLError as exc:
        raise ConfigError(f"{path}: not valid YAML: {_one_line(exc)}") from exc


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())
