"""Frozen dataclasses checked against their own type hints: the schema declarations are loaded through.

Every grading process loads one declaration. Importing a validation library and building its models cost
such a process more than many graders' whole work (measured: docs/performance.md, "Grading at real size"),
and kept small competitions slower than MLE-bench v1, which reads its config unchecked. The declarations
use a few shapes, so they are checked here, as strictly: an unknown key, a missing key, a wrong type and a
failed check are each a problem, and every problem is reported at once, with its key path.

Shapes: ``str``; ``int`` (a ``bool`` is not one); ``float`` (an ``int`` is widened); ``bool``; ``Any``;
``Literal[...]``; ``list[X]``; ``tuple[X, Y]``; ``dict[str, X]``; another :class:`Model` (from a mapping);
unions such as ``X | None`` (the member that fits, else the problems of the one that fits best); and
``Annotated[X, check, ...]``, where each check takes the converted value (never ``None``) and returns it or
raises ``ValueError`` with what is wrong. A model's :meth:`Model.check` holds the rules between its fields.
"""

from __future__ import annotations

import copy
import dataclasses
import types
import typing
from functools import cache, partial
from typing import Annotated, Any, Literal, Union

Loc = tuple[Any, ...]


class SchemaError(ValueError):
    """What is wrong with data given to a model: problems, dicts of ``loc``, ``type``, ``msg``, ``input``.

    ``loc`` is the key path from the model (``("split", "seed")``); ``type`` is ``unknown_key``,
    ``missing``, ``wrong_type``, ``wrong_choice`` (not one of a ``Literal``'s values) or ``value_error``;
    ``input`` is the offending value, where there is one.
    """

    def __init__(self, problems: list[dict[str, Any]]) -> None:
        self.problems = problems
        super().__init__("\n".join(f"{_dotted(p['loc'])}: {p['msg']}" for p in problems))


class Model:
    """Base of a frozen, keyword-only dataclass whose fields are converted and checked when it is built.

    A subclass is made a dataclass by subclassing alone; a ``list`` or ``dict`` default is copied for each
    instance. ``Model(**fields)`` and :meth:`model_validate` both check; :meth:`model_copy` does not.
    """

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        for name in cls.__dict__.get("__annotations__", {}):
            default = cls.__dict__.get(name)
            if isinstance(default, list | dict):
                setattr(cls, name, dataclasses.field(default_factory=partial(copy.copy, default)))
        dataclasses.dataclass(frozen=True, kw_only=True)(cls)

    def __post_init__(self) -> None:
        problems: list[dict[str, Any]] = []
        hints = _hints(type(self))
        for field in dataclasses.fields(self):  # type: ignore[arg-type]
            value = _convert(hints[field.name], getattr(self, field.name), (field.name,), problems)
            object.__setattr__(self, field.name, value)
        if not problems:
            try:
                self.check()
            except ValueError as exc:
                problems.append({"loc": (), "type": "value_error", "msg": str(exc)})
        if problems:
            raise SchemaError(problems)

    def check(self) -> None:
        """Check rules between fields once they are converted: raise ``ValueError`` naming the problem."""

    @classmethod
    def model_validate(cls, data: Any) -> typing.Self:
        """Build from a mapping (parsed YAML or JSON); :class:`SchemaError` lists every problem."""
        problems: list[dict[str, Any]] = []
        built = _model(cls, data, (), problems)
        if problems:
            raise SchemaError(problems)
        return built

    def model_dump(self) -> dict[str, Any]:
        """Return the fields as plain data, nested models as dicts."""
        return dataclasses.asdict(self)  # type: ignore[call-overload]

    def model_copy(self, update: dict[str, Any] | None = None) -> typing.Self:
        """Return a shallow copy with ``update``'s fields replaced, unchecked (as grading modes need)."""
        out = copy.copy(self)
        names = {f.name for f in dataclasses.fields(self)}  # type: ignore[arg-type]
        for name, value in (update or {}).items():
            if name not in names:
                raise TypeError(f"{type(self).__name__} has no field {name!r}")
            object.__setattr__(out, name, value)
        return out


def field_names(model: type[Model]) -> list[str]:
    """Return the keys a model takes, in declaration order."""
    return [f.name for f in dataclasses.fields(model)]  # type: ignore[arg-type]


def above(bound: float) -> typing.Callable[[Any], Any]:
    """Check that the value is greater than ``bound``."""
    return _bound(lambda v: v > bound, f"must be greater than {bound}")


def at_least(bound: float) -> typing.Callable[[Any], Any]:
    """Check that the value is ``bound`` or more."""
    return _bound(lambda v: v >= bound, f"must be at least {bound}")


def below(bound: float) -> typing.Callable[[Any], Any]:
    """Check that the value is less than ``bound``."""
    return _bound(lambda v: v < bound, f"must be less than {bound}")


def non_empty(value: Any) -> Any:
    """Check that the string or list is not empty."""
    if not len(value):
        raise ValueError("must not be empty")
    return value


def _bound(holds: typing.Callable[[Any], bool], message: str) -> typing.Callable[[Any], Any]:
    def check(value: Any) -> Any:
        if not holds(value):
            raise ValueError(message)
        return value

    return check


@cache
def _hints(model: type) -> dict[str, Any]:
    return typing.get_type_hints(model, include_extras=True)


def _dotted(loc: Loc) -> str:
    return ".".join(str(part) for part in loc) or "(top level)"


def _problem(problems: list[dict[str, Any]], loc: Loc, kind: str, msg: str, value: Any) -> None:
    problems.append({"loc": loc, "type": kind, "msg": msg, "input": value})


_SCALARS: dict[Any, tuple[tuple[type, ...], str]] = {
    str: ((str,), "a string"),
    bool: ((bool,), "true or false"),
    int: ((int,), "an integer"),
    float: ((int, float), "a number"),
}


def _convert(tp: Any, value: Any, loc: Loc, problems: list[dict[str, Any]]) -> Any:
    """``value`` as type ``tp``; what does not fit is added to ``problems`` (and ``None`` returned for it)."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin is Annotated:
        before, given = len(problems), value
        value = _convert(args[0], value, loc, problems)
        for check in args[1:] if value is not None and len(problems) == before else ():
            try:
                value = check(value)
            except ValueError as exc:
                _problem(problems, loc, "value_error", str(exc), given)
                break
        return value
    if tp is Any:
        return value
    if tp in _SCALARS:
        kinds, what = _SCALARS[tp]
        if isinstance(value, kinds) and (tp is bool or not isinstance(value, bool)):
            return float(value) if tp is float else value
        _problem(problems, loc, "wrong_type", f"must be {what}", value)
        return None
    if origin is Literal:
        if any(value == choice and type(value) is type(choice) for choice in args):
            return value
        _problem(problems, loc, "wrong_choice", f"must be one of {', '.join(map(repr, args))}", value)
        return None
    if origin in (Union, types.UnionType):
        return _union(args, value, loc, problems)
    if origin in (list, tuple):
        if not isinstance(value, list | tuple):
            _problem(problems, loc, "wrong_type", "must be a list", value)
            return None
        if origin is list:
            return [_convert(args[0], item, (*loc, i), problems) for i, item in enumerate(value)]
        if len(value) != len(args):
            _problem(problems, loc, "wrong_type", f"must be a list of {len(args)} items", value)
            return None
        return tuple(
            _convert(t, item, (*loc, i), problems)
            for i, (t, item) in enumerate(zip(args, value, strict=True))
        )
    if origin is dict:
        if not isinstance(value, dict):
            _problem(problems, loc, "wrong_type", "must be a mapping", value)
            return None
        return {
            _convert(args[0], k, (*loc, k), problems): _convert(args[1], v, (*loc, k), problems)
            for k, v in value.items()
        }
    if isinstance(tp, type) and issubclass(tp, Model):
        return _model(tp, value, loc, problems)
    raise TypeError(f"the schema has no rule for {tp!r} (at {_dotted(loc)})")


def _union(members: tuple[Any, ...], value: Any, loc: Loc, problems: list[dict[str, Any]]) -> Any:
    if value is None and type(None) in members:
        return None
    tried = []
    for member in (m for m in members if m is not type(None)):
        found: list[dict[str, Any]] = []
        out = _convert(member, value, loc, found)
        if not found:
            return out
        # The member that explains the value best: its outer shape fits (its problems lie deeper than
        # `loc`), then its tags do (a mapping's `kind: a` is no other member's), then it has fewest problems.
        outer = sum(p["loc"] == loc for p in found)
        tags = sum(p["loc"] != loc and p["type"] == "wrong_choice" for p in found)
        tried.append((outer, tags, len(found), found))
    problems.extend(min(tried, key=lambda t: t[:3])[3])
    return None


def _model(model: type[Model], value: Any, loc: Loc, problems: list[dict[str, Any]]) -> Any:
    if isinstance(value, model):
        return value
    if not isinstance(value, dict):
        _problem(problems, loc, "wrong_type", "must be a mapping", value)
        return None
    fields = {f.name: f for f in dataclasses.fields(model)}  # type: ignore[arg-type]
    before = len(problems)
    for key, item in value.items():
        if key not in fields:
            _problem(problems, (*loc, key), "unknown_key", "unknown key", item)
    for name, field in fields.items():
        if name not in value and field.default is field.default_factory is dataclasses.MISSING:
            _problem(problems, (*loc, name), "missing", "missing required key", None)
    known = {k: v for k, v in value.items() if k in fields}
    if len(problems) > before:  # cannot be built: still report what is wrong with the keys it has
        hints = _hints(model)
        for key, item in known.items():
            _convert(hints[key], item, (*loc, key), problems)
        return None
    try:
        return model(**known)
    except SchemaError as exc:
        problems.extend({**p, "loc": (*loc, *p["loc"])} for p in exc.problems)
        return None
