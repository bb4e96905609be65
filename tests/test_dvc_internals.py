"""DVC's private internals the scheduler patches or calls are all still there, in the installed DVC.

``mlebench/data/dvc_internals.py`` holds every patch of DVC and every private DVC name the project
uses, each registered with what it needs (:data:`~mlebench.data.dvc_internals.NEEDS`). A DVC release
that renames, removes or re-signs one fails here, naming the patch, before a user's ``mlebench run`` does.
"""

from __future__ import annotations

import ast
from importlib.metadata import version
from pathlib import Path

import pytest

from mlebench.data import dvc_internals
from mlebench_spec.errors import ConfigError

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.parametrize("patch", sorted(dvc_internals.NEEDS))
def test_dvc_still_has_what_each_patch_needs(patch: str) -> None:
    problems = dvc_internals.drift({patch: dvc_internals.NEEDS[patch]})[patch]
    assert not problems, f"DVC {version('dvc')} breaks patch {patch!r} (dvc_internals.py): {problems}"


def test_drift_names_the_patch_and_what_is_missing(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a need DVC does not meet (a gone name, other parameters) is reported by patch."""
    needs = {
        "gone": ("dvc.stage.cache:_no_such_function(stage)",),
        "resigned": ("dvc.stage.run:cmd_run(stage, wet)",),
        "fine": ("dvc.stage.run:cmd_run(stage, dry)",),
        "no_module": ("dvc.no_such_module:anything",),
        "keyword_gone": ("dvc.repo:Repo.__init__(self, root_dir, *, config, _wait_for_no_lock)",),
        "layout_moved": ('dvc.stage.cache:StageCache.push contains hash_name="md5-unix"',),
        "layout_kept": (
            f'dvc.stage.cache:StageCache.pull contains hash_name="{dvc_internals.RUN_CACHE_HASH}"',
        ),
    }
    found = dvc_internals.drift(needs)
    assert found["fine"] == []
    assert found["gone"] == ["dvc.stage.cache has no _no_such_function"]
    assert "takes (stage, dry, run_env)" in found["resigned"][0]
    assert "does not import" in found["no_module"][0]
    assert "the patch expects (self, root_dir, *, config, _wait_for_no_lock" in found["keyword_gone"][0]
    assert found["layout_moved"] == [
        "dvc.stage.cache:StageCache.push no longer holds 'hash_name=\"md5-unix\"'"
    ]
    assert found["layout_kept"] == []
    monkeypatch.setattr(dvc_internals, "NEEDS", needs)
    with pytest.raises(ConfigError, match=r"gone: dvc.stage.cache has no _no_such_function.*pyproject.toml"):
        dvc_internals.check()


HELPERS = {"drift", "check", "plain", "yaml_text", "write_atomically"}
"""The room's public functions that reach nothing of DVC's: its own checks and the YAML writers."""

INTERNAL_LIBRARIES = ("dvc_data", "dvc_objects", "scmrepo", "dulwich")
"""DVC's own libraries (its hashing, state, object stores, git): all of them internal to DVC."""

SCANNED = ("mlebench", "mlebench_spec", "stages", "graders", "authoring", "agents")


def _defined_here() -> set[str]:
    """Every ``_name`` our own code defines (functions, classes, attributes it assigns): not DVC's."""
    names: set[str] = set()
    for package in SCANNED:
        for path in (ROOT / package).rglob("*.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    names.add(node.name)
                elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store):
                    names.add(node.attr)
                elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                    names.add(node.id)
                elif isinstance(node, ast.arg):
                    names.add(node.arg)
    return {n for n in names if n.startswith("_")}


def dvc_leaks(source: str, where: str, ours: set[str]) -> list[str]:
    """Return each place in ``source`` (a module of ours) that reaches into DVC past its public names.

    A leak: importing one of DVC's internal libraries (:data:`INTERNAL_LIBRARIES`), or a private name or
    module of DVC (``from dvc.x import _y``, ``dvc._x``); or, in a module that imports DVC, passing a
    private keyword (``Repo(..., _wait_for_lock=True)``), reading a private attribute our own code does not
    define (``repo.stage_cache._load_cache``, ``getattr(x, "_y")``), or spelling a DVC layout string
    (:data:`~mlebench.data.dvc_internals.RUN_CACHE_HASH`, the ``exited with`` of DVC's failure message).
    """
    tree = ast.parse(source)
    out: list[str] = []
    uses_dvc = False
    for node in ast.walk(tree):
        modules: list[str] = []
        if isinstance(node, ast.Import):
            modules = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            modules = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
        for name in modules:
            top = name.split(".")[0]
            if top in INTERNAL_LIBRARIES:
                out.append(f"{where}:{node.lineno} imports {name} (DVC's internal library)")
            elif top == "dvc":
                uses_dvc = True
                if any(part.startswith("_") for part in name.split(".")):
                    out.append(f"{where}:{node.lineno} imports {name} (private to DVC)")
    if not uses_dvc:
        return out
    literals = (dvc_internals.RUN_CACHE_HASH, "exited with")
    for node in ast.walk(tree):
        if isinstance(node, ast.keyword) and (node.arg or "").startswith("_"):
            out.append(f"{where}:{node.value.lineno} passes DVC's private keyword {node.arg}")
        elif isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__"):
            if node.attr not in ours:
                out.append(f"{where}:{node.lineno} reads .{node.attr} (private to DVC)")
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("getattr", "setattr")
        ):
            if (
                len(node.args) > 1
                and isinstance(node.args[1], ast.Constant)
                and str(node.args[1].value).startswith("_")
            ):
                out.append(f"{where}:{node.lineno} {node.func.id}(..., {node.args[1].value!r})")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.extend(f"{where}:{node.lineno} spells DVC's {t!r}" for t in literals if t in node.value)
    return out


def test_every_patch_is_registered() -> None:
    """Each patch or private call in dvc_internals is registered in NEEDS with what it needs of DVC."""
    tree = ast.parse((ROOT / "mlebench/data/dvc_internals.py").read_text(encoding="utf-8"))
    public = {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}
    assert public - HELPERS == set(dvc_internals.NEEDS)
    assert all(dvc_internals.NEEDS.values()), "a registered patch names nothing it needs"


def test_nothing_outside_dvc_internals_reaches_into_dvc() -> None:
    """No module of ours but dvc_internals imports or uses a private DVC name, library or layout."""
    ours = _defined_here()
    offenders = []
    for package in SCANNED:
        for path in sorted((ROOT / package).rglob("*.py")):
            if path == ROOT / "mlebench/data/dvc_internals.py":
                continue
            offenders += dvc_leaks(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)), ours)
    assert not offenders, offenders


@pytest.mark.parametrize(
    ("snippet", "found"),
    [
        ("from dvc.repo import Repo\nRepo('.', _wait_for_lock=True)", "private keyword _wait_for_lock"),
        ("from dvc_data.hashfile.hash_info import HashInfo", "imports dvc_data.hashfile.hash_info"),
        ("import dvc_objects", "imports dvc_objects"),
        ("from dvc.stage.cache import _can_hash", "imports dvc.stage.cache._can_hash"),
        ("from dvc.utils.serialize import _yaml", "imports dvc.utils.serialize._yaml"),
        ("from dvc.repo import Repo\nRepo('.').stage_cache._load_cache('k', 'v')", "reads ._load_cache"),
        ("import dvc.repo\ngetattr(x, '_reset')", "getattr(..., '_reset')"),
        (
            "from dvc.repo import Repo\nx.get_remote_odb('r', 'push', hash_name='md5-dos2unix')",
            "'md5-dos2unix'",
        ),
        ("from dvc.exceptions import DvcException\nre.search('exited with (\\\\d+)', m)", "'exited with'"),
    ],
)
def test_the_leak_scan_finds_each_kind_of_leak(snippet: str, found: str) -> None:
    """The scan can fail: each kind of reach into DVC, written in a module of ours, is named."""
    leaks = dvc_leaks(snippet, "m.py", _OURS)
    assert any(found in leak for leak in leaks), leaks
    assert (
        dvc_leaks("from dvc.repo import Repo\nRepo('.').index.graph\nself._mine = 1", "m.py", {"_mine"}) == []
    )


_OURS = {"_step", "_mine"}
