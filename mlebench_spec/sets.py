"""Competition sets are queries over the declarations, not hand-kept lists.

:func:`competition_ids` turns a set's ``where:`` block (``conf/competition_set/*.yaml``) into ids, so that
sets such as ``embedded`` or ``systemcard`` follow the declarations.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from mlebench_spec.declarations import Competition, all_competition_ids, declaration_path, parse_declaration
from mlebench_spec.errors import ConfigError
from mlebench_spec.schema import field_names


def competition_ids(where: Mapping[str, Any], root: Path | None = None) -> list[str]:
    """Ids (sorted) of the declarations whose fields match ``where``.

    Each key is a declaration field, dotted for nested ones (``source.kind``); a list value matches any of
    its items, any other value must be equal. ``{}`` selects every competition. An unknown key, or a
    declaration that does not parse, is a ConfigError.
    """
    for key in where:
        if key.split(".")[0] not in field_names(Competition):
            known = ", ".join(field_names(Competition))
            raise ConfigError(f"competition set filter: {key!r} is not a declaration field (known: {known})")
    selected = []
    for competition_id in all_competition_ids(root):
        comp = parse_declaration(declaration_path(competition_id, root))
        if all(_matches(_field(comp, key), wanted) for key, wanted in where.items()):
            selected.append(competition_id)
    return selected


def _field(comp: Competition, key: str) -> Any:
    value: Any = comp
    for part in key.split("."):
        value = getattr(value, part, _MISSING)
        if value is _MISSING:
            return _MISSING
    return value


def _matches(value: Any, wanted: Any) -> bool:
    if value is _MISSING:
        return False
    if isinstance(wanted, list | tuple | set):
        return value in wanted
    return bool(value == wanted)


_MISSING = object()
