"""One check per competition folder: declaration, metric, description, prepare signature, leaderboard."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mlebench.checker import check_folder
from mlebench.declarations import PackageSource, parse_declaration
from mlebench.prepare import load_prepare_function

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
    missing = [c for c in comp.submission.columns if not re.search(rf"\b{re.escape(c)}\b", text)]
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
    assert (folder / "prepare.py").is_file()


def test_checker_finds_nothing(folder: Path) -> None:
    """Everything the checker looks at, incl. leaderboard order (skipped while leaderboards are missing)."""
    registry = pytest.importorskip("graders.registry")
    problems = check_folder(folder, registry)
    missing_board = [p for p in problems if "leaderboard file is missing" in p.message]
    others = [str(p) for p in problems if p not in missing_board]
    assert others == []
    if missing_board:
        pytest.skip(str(missing_board[0]))
