"""Our own source code as files: which modules a program imports, found by reading the code.

DVC does not follow imports, and an image must hold every module its entry point runs, so both lists are
derived here, from the code itself, instead of being kept by hand. :func:`closure` reads each file's
``import`` statements (function-level ones included), follows those that name one of our packages
(:data:`PACKAGES`) and returns every file that running the entry points can load: the modules, each
package's ``__init__.py`` on the way to them, and data files a module names by a string literal (a
sibling such as ``instructions.txt`` read through ``Path(__file__).with_name(...)``). Source only: no
bytecode or caches, whichever checkout computes it.

What a file's code names is kept on disk (:func:`_remembered`), keyed by a hash of the file's bytes, so the
stages that derive an image's files from imports (every run and grade stage) read it instead of parsing
the same unchanged modules again; an edit is a new key.
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from collections.abc import Callable, Iterable
from functools import cache
from pathlib import Path

from mlebench_spec.files import write_text

PACKAGES = ("mlebench_spec", "mlebench", "graders", "stages", "authoring")
"""The top-level packages that are ours; imports of anything else are third-party and not followed."""
CARRIERS = frozenset({"mlebench.resident"})
"""Modules that carry a stage's process without computing any of what it writes, and are not followed: the
resident stage server (``stages/__init__.py`` hands a stage to it) runs the same stage module with the same
arguments, so a stage's lineage is the code it runs, whichever process runs it, as it is under the
scheduler's warm starts."""


def closure(entries: Iterable[Path | str], root: Path) -> list[str]:
    """Every file of ours that running ``entries`` can load, as sorted POSIX paths relative to ``root``.

    An entry is a file (a module of one of our packages, or a script such as a competition's ``prepare.py``)
    or a dotted module name. The entries themselves are included. Imports under ``if TYPE_CHECKING:`` never
    run and are not followed.
    """
    root = root.resolve()
    _module_file.cache_clear()  # files may have come or gone since the last call
    todo: list[Path] = []
    for entry in entries:
        if isinstance(entry, str) and not entry.endswith(".py"):
            found = _module_file(root, entry)
            if found is None:
                raise ValueError(f"no module {entry!r} under {root}")
            todo.append(found)
        else:
            path = Path(entry)
            todo.append(path if path.is_absolute() else root / path)
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        for found in _loads(path, root):
            if found not in seen:
                todo.append(found)
    return sorted(p.relative_to(root).as_posix() for p in seen)


def module_name(path: Path, root: Path) -> str | None:
    """Return the dotted name of a file of one of our packages (None for a file outside them)."""
    rel = path.resolve().relative_to(root.resolve()).with_suffix("")
    parts = list(rel.parts)
    if not parts or parts[0] not in PACKAGES:
        return None
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(path: Path, root: Path) -> set[str]:
    """Return the dotted names of our modules that ``path`` imports (relative imports resolved)."""
    return set(_imports(path.resolve(), root.resolve()))


def _loads(path: Path, root: Path) -> set[Path]:
    """Files loaded because ``path`` runs: imported modules, their packages' inits, named data files."""
    out: set[Path] = set()
    if path.suffix != ".py":
        return out
    for name in _imports(path, root):
        if name in CARRIERS:
            continue
        parts = name.split(".")
        for i in range(1, len(parts) + 1):
            found = _module_file(root, ".".join(parts[:i]))
            if found is not None:
                out.add(found)
    module = module_name(path, root)
    if module is not None:  # importing a.b.c runs a/__init__.py and a/b/__init__.py first
        parts = module.split(".")
        for i in range(1, len(parts)):
            init = root.joinpath(*parts[:i], "__init__.py")
            if init.is_file():
                out.add(init)
    out |= _data_files(path)
    return out


def _imports(path: Path, root: Path) -> tuple[str, ...]:
    return _imports_at(path, root, path.stat().st_mtime_ns)


@cache
def _imports_at(path: Path, root: Path, _mtime_ns: int) -> tuple[str, ...]:
    source = path.read_bytes()
    module = module_name(path, root) if path.is_relative_to(root) else None
    names = _remembered("imports", source, [module], lambda: _imported_names(source, path, module))
    return tuple(n for n in names if n.split(".")[0] in PACKAGES and _module_file(root, n) is not None)


def _imported_names(source: bytes, path: Path, module: str | None) -> list[str]:
    """Every module name the runtime imports of ``source`` name (relative ones resolved within ``module``)."""
    tree = ast.parse(source.decode("utf-8"), filename=str(path))
    package = None
    if module is not None:
        package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    names: list[str] = []
    for node in _runtime_nodes(tree):
        if isinstance(node, ast.Import):
            names += [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = _resolve(node, package)
            if base is None:
                continue
            names.append(base)
            names += [f"{base}.{alias.name}" for alias in node.names if alias.name != "*"]
    return [n for n in names if n.split(".")[0] in PACKAGES]


_MEMO_FORMAT = 1
"""Part of every memo key: bump it when what :func:`_imported_names` or :func:`_data_files` finds changes."""


def _remembered(kind: str, source: bytes, key: list[str | None], find: Callable[[], list[str]]) -> list[str]:
    """Return ``find()`` for this ``source`` and ``key``, from the on-disk memo when it has the answer.

    The memo lives in ``$MLEBENCH_CACHE`` (default ``~/.cache/mlebench``) under ``sources/``; one small JSON
    file per answer, written atomically, so processes that share it never see half of one. A memo that
    cannot be read or written is no memo: the answer is computed.
    """
    digest = hashlib.sha256(json.dumps([_MEMO_FORMAT, kind, key]).encode() + b"\0" + source).hexdigest()
    folder = Path(os.environ.get("MLEBENCH_CACHE") or Path.home() / ".cache" / "mlebench") / "sources"
    path = folder / f"{kind}-{digest}.json"
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
        if isinstance(found, list) and all(isinstance(n, str) for n in found):
            return found
    except (OSError, ValueError):
        pass
    answer = find()
    try:
        write_text(path, json.dumps(answer))
    except OSError:
        pass
    return answer


def _runtime_nodes(tree: ast.AST) -> list[ast.AST]:
    """Every node that can run: the bodies of ``if TYPE_CHECKING:`` blocks are left out (type hints only)."""
    found: list[ast.AST] = []
    todo = [tree]
    while todo:
        node = todo.pop()
        found.append(node)
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            todo.extend(node.orelse)
            continue
        todo.extend(ast.iter_child_nodes(node))
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _resolve(node: ast.ImportFrom, package: str | None) -> str | None:
    if not node.level:
        return node.module
    if package is None:
        return None
    parts = package.split(".")
    if node.level > 1:
        parts = parts[: len(parts) - node.level + 1]
    return ".".join(parts + ([node.module] if node.module else []))


@cache
def _module_file(root: Path, name: str) -> Path | None:
    base = root.joinpath(*name.split("."))
    if (base / "__init__.py").is_file():
        return base / "__init__.py"
    if base.with_suffix(".py").is_file():
        return base.with_suffix(".py")
    return None


def _data_files(path: Path) -> set[Path]:
    """Sibling files (not Python) that the module names by an exact string literal."""
    siblings = {p.name: p for p in path.parent.iterdir() if p.is_file() and p.suffix not in (".py", ".pyc")}
    if not siblings:
        return set()
    source = path.read_bytes()

    def named() -> list[str]:
        tree = ast.parse(source.decode("utf-8"), filename=str(path))
        constants = (n.value for n in ast.walk(tree) if isinstance(n, ast.Constant))
        strings = (c for c in constants if isinstance(c, str))
        return sorted({s for s in strings if s in siblings})

    return {siblings[name] for name in _remembered("data", source, sorted(siblings), named)}
