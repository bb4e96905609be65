"""The code's layers point one way, and no module of ours imports itself round a circle.

From the bottom: ``mlebench_spec`` (schemas, YAML, paths, errors) imports nothing else of ours; ``graders``
imports only itself and the spec; data and reporting sit above them, execution (one cell) above those,
planning above execution, scheduling (the grid over DVC and its executors) above planning, and the entry
points (the CLI, the stage wrapper, ``stages/``) on top. Of the entry points only the CLI reaches scheduling:
a stage runs one cell and never loads the scheduler. MLE-bench v1's Python API (``mlebench.registry``,
``mlebench.grade``, ``mlebench.grade_helpers``, ``mlebench.utils``,
``mlebench.competitions.utils``) is a face on top too: no module of ours
outside it imports it (v1's data functions are data-layer functions in ``mlebench.data``). Authoring tools
(``authoring/``) may use anything, and no package of ours imports them: their CLI commands plug in through
the ``mlebench.commands`` entry points (``pyproject.toml``). The CLI reaches the report through library
calls, never through a stage module. A competition's folder holds its whole truth, its authoring fixture
(``fixture.py``, which builds its stand-in download and grading inputs from the authoring tools) included;
its runtime code (``prepare.py``) imports no authoring tool. Imports are read from the code itself,
function-level ones included (:mod:`mlebench_spec.sources`).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mlebench_spec.sources import PACKAGES, imported_modules, module_name

ROOT = Path(__file__).resolve().parents[1]
LAYERS = [
    ("mlebench_spec",),
    ("graders",),
    ("mlebench.data", "mlebench.reporting"),
    ("mlebench.execution", "mlebench.integrity"),
    ("mlebench.planning",),
    ("mlebench.scheduling",),
    ("mlebench.cli", "mlebench.stage", "stages", "mlebench"),
]
V1_FACE = (
    "mlebench.registry",
    "mlebench.grade",
    "mlebench.grade_helpers",
    "mlebench.utils",
    "mlebench.competitions",
    "mlebench.competitions.utils",
)
"""MLE-bench v1's Python API: modules on top, over our declarations, graders and data code."""
AUTHORING = "authoring"
SCHEDULING = "mlebench.scheduling"
MAY_USE_SCHEDULING = ("mlebench.cli",)


def _modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "__pycache__" not in path.parts:
                found[module_name(path, ROOT)] = path
    return found


MODULES = _modules()
GRAPH = {name: imported_modules(path, ROOT) - {name} for name, path in MODULES.items()}


def _layer(module: str) -> int | None:
    """Return the layer a module belongs to (by its longest matching prefix), None for authoring."""
    best, depth = None, -1
    for index, prefixes in enumerate(LAYERS):
        for prefix in prefixes:
            if (module == prefix or module.startswith(prefix + ".")) and prefix.count(".") > depth:
                best, depth = index, prefix.count(".")
    return best


def test_every_module_has_a_layer() -> None:
    unplaced = [m for m in MODULES if _layer(m) is None and not m.startswith(AUTHORING)]
    assert not unplaced


@pytest.mark.parametrize("module", sorted(m for m in MODULES if not m.startswith(AUTHORING)))
def test_imports_point_down(module: str) -> None:
    mine = _layer(module)
    upward = sorted(
        target
        for target in GRAPH[module]
        if not target.startswith(AUTHORING) and (_layer(target) or 0) > mine
    )
    assert not upward, f"{module} (layer {mine}) imports from layers above it: {upward}"


def test_the_v1_face_is_on_top_and_nothing_else_of_ours_imports_it() -> None:
    assert all(face in MODULES and _layer(face) == len(LAYERS) - 1 for face in V1_FACE)
    users = sorted(
        module
        for module, targets in GRAPH.items()
        if module not in V1_FACE and any(t in V1_FACE for t in targets)
    )
    assert not users, f"modules below MLE-bench v1's face import it: {users}"


def test_graders_import_only_graders_and_the_spec() -> None:
    wrong = {
        module: sorted(t for t in targets if not t.startswith(("graders", "mlebench_spec")))
        for module, targets in GRAPH.items()
        if module.startswith("graders")
    }
    assert not {m: t for m, t in wrong.items() if t}


def test_spec_imports_nothing_else_of_ours() -> None:
    wrong = {
        module: sorted(t for t in targets if not t.startswith("mlebench_spec"))
        for module, targets in GRAPH.items()
        if module.startswith("mlebench_spec")
    }
    assert not {m: t for m, t in wrong.items() if t}


def test_nothing_of_ours_imports_the_authoring_tools() -> None:
    users = sorted(
        module
        for module, targets in GRAPH.items()
        if not module.startswith(AUTHORING) and any(t.startswith(AUTHORING) for t in targets)
    )
    assert not users, users


def test_the_authoring_commands_plug_into_the_cli_through_entry_points() -> None:
    """pyproject.toml names them; installed, the CLI's parser has them and they run the authoring code."""
    import tomllib
    from importlib.metadata import entry_points

    from mlebench.cli import COMMANDS_GROUP, _parser

    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["entry-points"]
    named = declared[COMMANDS_GROUP]
    assert set(named) == {"thresholds", "leaderboard"}
    assert {ep.name: ep.value for ep in entry_points(group=COMMANDS_GROUP)} == named, (
        "the installed entry points differ from pyproject.toml's: pip install -e . again"
    )
    parser = _parser()
    for name in named:
        args = parser.parse_args([name, "-c", "spaceship-titanic"])
        assert args.func.__module__ == "authoring.commands"


def test_the_cli_imports_no_stage_module() -> None:
    """The CLI calls the library the stages call; a stage module is an entry point, not a library."""
    assert not sorted(t for t in GRAPH["mlebench.cli"] if t == "stages" or t.startswith("stages."))


@pytest.mark.parametrize(
    "folder", sorted(p.parent.name for p in (ROOT / "competitions").glob("*/prepare.py"))
)
def test_a_competitions_runtime_code_imports_no_authoring_tool(folder: str) -> None:
    prepare = ROOT / "competitions" / folder / "prepare.py"
    assert not sorted(t for t in imported_modules(prepare, ROOT) if t.startswith(AUTHORING))


def test_only_the_cli_reaches_the_scheduling() -> None:
    """Nothing below the CLI imports ``mlebench.scheduling``: not the stages, not the one-cell execution."""
    users = sorted(
        module
        for module, targets in GRAPH.items()
        if not module.startswith((SCHEDULING, AUTHORING)) and any(t.startswith(SCHEDULING) for t in targets)
    )
    assert set(users) <= set(MAY_USE_SCHEDULING), users


def test_graders_and_the_runtime_do_not_import_each_other() -> None:
    """At package level the arrows run mlebench -> graders -> mlebench_spec, never back."""
    back = sorted(
        f"{module} -> {t}"
        for module, targets in GRAPH.items()
        for t in targets
        if (module.startswith("graders") and (t == "mlebench" or t.startswith("mlebench.")))
        or (module.startswith("mlebench_spec") and t.split(".")[0] in ("mlebench", "graders"))
    )
    assert not back


def test_the_validator_needs_the_spec_and_graders_alone() -> None:
    """The agent image's validator ships the files it imports: graders/ and mlebench_spec/, no runtime."""
    from mlebench_spec.sources import closure

    files = closure(["environment/validate.py"], ROOT)
    outside = [f for f in files if not f.startswith(("graders/", "mlebench_spec/"))]
    assert outside == ["environment/validate.py"]


def test_no_import_cycles() -> None:
    """Tarjan's strongly connected components over the module graph: every component is one module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in GRAPH.get(node, ()):
            if target not in MODULES:
                continue
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                cycles.append(sorted(component))

    for module in MODULES:
        if module not in index:
            visit(module)
    assert not cycles, f"import cycles: {cycles}"


def test_the_checks_see_a_planted_cycle_and_an_upward_import(tmp_path: Path) -> None:
    """The reading of imports is what the checks stand on: it must see both kinds of wrong edge."""
    pkg = tmp_path / "graders"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "a.py").write_text("def f():\n    from graders import b\n")
    (pkg / "b.py").write_text("from .a import f\nfrom mlebench.execution import runners\n")
    (tmp_path / "mlebench" / "execution").mkdir(parents=True)
    for init in ("mlebench/__init__.py", "mlebench/execution/__init__.py", "mlebench/execution/runners.py"):
        (tmp_path / init).write_text("")
    assert imported_modules(pkg / "a.py", tmp_path) >= {"graders.b"}
    assert imported_modules(pkg / "b.py", tmp_path) >= {"graders.a", "mlebench.execution.runners"}
