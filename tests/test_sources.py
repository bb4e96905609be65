"""Import closures read from the code, and the on-disk memo that spares re-parsing unchanged files."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from mlebench_spec import sources
from mlebench_spec.sources import closure


def _package(root: Path) -> None:
    pkg = root / "mlebench"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from mlebench import b\n\ndef f():\n    import json\n")
    (pkg / "b.py").write_text('from pathlib import Path\n\nTEXT = Path(__file__).with_name("words.txt")\n')
    (pkg / "words.txt").write_text("hello\n")
    (pkg / "c.py").write_text("X = 1\n")


@pytest.fixture
def parses(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> list[str]:
    """Memo in a fresh folder; every ast.parse of a module's source is logged (by file name)."""
    monkeypatch.setenv("MLEBENCH_CACHE", str(tmp_path / "memo"))
    seen: list[str] = []
    real = ast.parse

    def logged(source, filename="<unknown>", *args, **kwargs):  # noqa: ANN001, ANN002, ANN003
        seen.append(Path(str(filename)).name)
        return real(source, filename, *args, **kwargs)

    monkeypatch.setattr(sources.ast, "parse", logged)
    return seen


def _fresh_process() -> None:
    sources._imports_at.cache_clear()  # what a new stage process starts with


def test_an_unchanged_file_is_read_from_the_memo_and_an_edited_one_parsed_again(
    tmp_path: Path, parses: list[str]
) -> None:
    root = tmp_path / "src"
    root.mkdir()
    _package(root)
    expected = ["mlebench/__init__.py", "mlebench/a.py", "mlebench/b.py", "mlebench/words.txt"]
    assert closure(["mlebench/a.py"], root) == expected
    assert parses, "the first closure parses the modules"
    assert list((tmp_path / "memo" / "sources").glob("imports-*.json"))

    parses.clear()
    _fresh_process()
    assert closure(["mlebench/a.py"], root) == expected
    assert parses == [], "nothing unchanged is parsed again"

    (root / "mlebench" / "b.py").write_text("from mlebench import c\n")  # an edit is a new key
    _fresh_process()
    assert closure(["mlebench/a.py"], root) == [*expected[:3], "mlebench/c.py"]
    assert sorted(set(parses)) == ["b.py", "c.py"], "only the edited file and the one it now reaches"


def test_an_unreadable_or_unwritable_memo_is_no_memo(
    tmp_path: Path, parses: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    root = tmp_path / "src"
    root.mkdir()
    _package(root)
    expected = closure(["mlebench/a.py"], root)
    for memo in (tmp_path / "memo" / "sources").glob("*.json"):
        memo.write_text("{not json")  # a torn or foreign file: recomputed
    _fresh_process()
    assert closure(["mlebench/a.py"], root) == expected

    blocked = tmp_path / "blocked"
    blocked.write_text("a file where the memo folder would be")
    monkeypatch.setenv("MLEBENCH_CACHE", str(blocked))
    _fresh_process()
    assert closure(["mlebench/a.py"], root) == expected
