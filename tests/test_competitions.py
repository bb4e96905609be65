"""One check per competition folder: declaration, metric, description, prepare signature, leaderboard."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mlebench.data.checker import check_folder
from mlebench.data.prepare import load_prepare_function
from mlebench_spec.declarations import PackageSource, parse_declaration

ROOT = Path(__file__).resolve().parents[1]
FOLDERS = sorted(
    p for p in (ROOT / "competitions").iterdir() if p.is_dir() and not p.name.startswith((".", "_"))
)


@pytest.fixture(params=FOLDERS, ids=[p.name for p in FOLDERS])
def folder(request: pytest.FixtureRequest) -> Path:
    return request.param


def test_there_are_competitions() -> None:
    assert FOLDERS, "no competition folders found"


def test_declaration_validates(folder: Path) -> None:
    comp = parse_declaration(folder / "competition.yaml")
    assert comp.id == folder.name


def test_metric_is_registered(folder: Path) -> None:
    registry = pytest.importorskip("graders.registry")
    comp = parse_declaration(folder / "competition.yaml")
    registry.get_metric(comp.metric.name)
    if hasattr(registry, "metric_arg_problems"):
        assert registry.metric_arg_problems(comp.metric.name, comp.metric.args) == []


def test_description_exists(folder: Path) -> None:
    comp = parse_declaration(folder / "competition.yaml")
    text = (folder / comp.description).read_text(encoding="utf-8")
    assert text.strip()


def test_description_names_every_submission_column(folder: Path) -> None:
    comp = parse_declaration(folder / "competition.yaml")
    text = (folder / comp.description).read_text(encoding="utf-8")
    columns = comp.submission.columns
    if (
        len(columns) > 12
    ):  # one column per class or target: the sample submission lists them, the text points there
        columns = [comp.submission.id_column]
        assert "sample_submission.csv" in text, (
            "a wide submission's description must point at sample_submission.csv"
        )
    missing = [c for c in columns if not re.search(rf"\b{re.escape(c)}\b", text)]
    assert not missing, f"description.md never mentions submission column(s) {missing}"


def test_prepare_signature(folder: Path) -> None:
    script = folder / "prepare.py"
    if not script.is_file():
        pytest.skip("no prepare.py")
    assert callable(load_prepare_function(script))


def test_embedded_sources_are_pinned(folder: Path) -> None:
    comp = parse_declaration(folder / "competition.yaml")
    if comp.complexity != "embedded":
        pytest.skip("not an embedded competition")
    assert isinstance(comp.source, PackageSource)
    assert all(item.sha256 for item in comp.source.files)
    # its own prepare.py, or a declared prepare
    assert (folder / "prepare.py").is_file() or comp.prepare is not None


def test_checker_finds_nothing(folder: Path) -> None:
    """Everything the checker looks at: schema, metric and args, description, prepare.py, leaderboard order.

    A competition without declared ``medals:`` must ship its leaderboard file.
    """
    from graders import registry

    assert [str(p) for p in check_folder(folder, registry)] == []
