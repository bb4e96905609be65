"""The declarations' schema: strict conversion, every problem at once with its key path, unchecked copies."""

from __future__ import annotations

from typing import Annotated, Any, Literal

import pytest

from mlebench_spec.schema import Model, SchemaError, above, at_least, below, field_names, non_empty


class Inner(Model):
    """A tagged member."""

    kind: Literal["a"]
    size: Annotated[int, at_least(0)] = 0


class Other(Model):
    """The other tagged member."""

    kind: Literal["b"]
    label: str


class Outer(Model):
    """Every shape the declarations use."""

    name: Annotated[str, non_empty]
    share: Annotated[float | None, above(0), below(1)] = None
    part: Inner | Other
    parts: list[Inner] = []
    shape: tuple[int, int] = (1, 1)
    fill: Literal["zero", "mean"] | dict[str, str] = "zero"
    extra: dict[str, Any] = {}
    flag: bool = False
    weight: float = 1.0

    def check(self) -> None:
        """Require a share when there are parts."""
        if self.parts and self.share is None:
            raise ValueError("parts need a share")


def _problems(data: Any) -> list[tuple[str, str]]:
    with pytest.raises(SchemaError) as err:
        Outer.model_validate(data)
    return [(".".join(map(str, p["loc"])), p["msg"]) for p in err.value.problems]


def test_valid_data_is_converted() -> None:
    out = Outer.model_validate(
        {"name": "x", "share": 1 / 2, "part": {"kind": "b", "label": "l"}, "shape": [2, 3]}
    )
    assert out.part == Other(kind="b", label="l")
    assert out.shape == (2, 3) and out.parts == [] and out.fill == "zero"
    assert isinstance(Outer(name="x", share=0.5, part={"kind": "a"}).part, Inner)  # nested mappings convert


def test_every_problem_is_reported_with_its_key_path() -> None:
    problems = _problems(
        {
            "name": "",
            "share": 2,
            "part": {"kind": "a", "size": -1, "colour": "red"},
            "parts": [{"kind": "a"}, {"kind": "a", "size": "3"}],
            "shape": [1],
            "flag": 1,
        }
    )
    assert problems == [
        ("name", "must not be empty"),
        ("share", "must be less than 1"),
        ("part.colour", "unknown key"),
        ("part.size", "must be at least 0"),
        ("parts.1.size", "must be an integer"),
        ("shape", "must be a list of 2 items"),
        ("flag", "must be true or false"),
    ]


def test_missing_and_unknown_keys_and_the_rest_at_once() -> None:
    assert _problems({"share": "half", "part": {"kind": "a"}, "colour": 1}) == [
        ("colour", "unknown key"),
        ("name", "missing required key"),
        ("share", "must be a number"),
    ]


def test_a_union_reports_the_member_that_fits_best() -> None:
    assert _problems({"name": "x", "part": {"kind": "b"}}) == [("part.label", "missing required key")]
    assert _problems({"name": "x", "part": {"kind": "a"}, "fill": "max"}) == [
        ("fill", "must be one of 'zero', 'mean'")
    ]
    assert _problems({"name": "x", "part": {"kind": "a"}, "fill": {"c": 0}}) == [
        ("fill.c", "must be a string")
    ]
    assert _problems({"name": "x", "part": {"kind": "c", "label": "l"}}) == [
        ("part.kind", "must be one of 'b'")
    ]
    assert _problems({"name": "x", "part": 3}) == [("part", "must be a mapping")]


def test_bools_are_not_numbers_and_ints_widen_to_floats() -> None:
    assert _problems({"name": "x", "part": {"kind": "a", "size": True}}) == [
        ("part.size", "must be an integer")
    ]
    widened = Outer.model_validate({"name": "x", "part": {"kind": "a"}, "weight": 2, "extra": {"k": 1}})
    assert type(widened.weight) is float and widened.weight == 2.0
    assert type(widened.extra["k"]) is int  # Any is left as it is


def test_rules_between_fields_run_after_conversion() -> None:
    assert _problems({"name": "x", "part": {"kind": "a"}, "parts": [{"kind": "a"}]}) == [
        ("", "parts need a share")
    ]
    with pytest.raises(SchemaError, match="parts need a share"):
        Outer(name="x", part={"kind": "a"}, parts=[{"kind": "a"}])


def test_copies_are_unchecked_and_defaults_are_not_shared() -> None:
    one = Outer(name="x", part={"kind": "a"})
    loose = one.model_copy(update={"share": 5.0})  # a grading mode may set what a declaration may not
    assert loose.share == 5.0 and one.share is None
    with pytest.raises(TypeError, match="no field 'colour'"):
        one.model_copy(update={"colour": "red"})
    one.parts.append(Inner(kind="a"))
    assert Outer(name="y", part={"kind": "a"}).parts == []


def test_dump_round_trips_and_names_the_fields() -> None:
    one = Outer(name="x", share=0.5, part={"kind": "b", "label": "l"}, parts=[{"kind": "a", "size": 2}])
    assert one.model_dump()["parts"] == [{"kind": "a", "size": 2}]
    assert Outer.model_validate(one.model_dump()) == one
    assert field_names(Outer)[:3] == ["name", "share", "part"]


def test_instances_are_frozen() -> None:
    with pytest.raises(AttributeError):
        Outer(name="x", part={"kind": "a"}).name = "y"  # type: ignore[misc]
