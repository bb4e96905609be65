"""Lineage: stage deps derived from imports make exactly the right stages stale, on any checkout.

Slow tests reproduce one reduced grid (one competition × both agents × one seed, local runner) in a
temporary copy of the repository, with bytecode writing on, then:

- edit one code file of each stage kind's derived deps (chosen from the pipeline files, so the test follows
  modules as they move) and check `dvc status` flags exactly the stages that list it;
- push, `git clone` a second checkout, pull, and check it is clean and a `dvc repro` runs nothing, even
  after Python writes bytecode into an agent folder and the graders.

Fast tests check the image build contexts against the import closure of their entry points. (That the
committed pipeline files carry the code deps :func:`~mlebench.planning.plan.stage_code` derives today is
``tests/test_conf.py::test_committed_plan_matches_conf``: it re-renders every pipeline file and diffs it.)
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from checkout_copy import copy_checkout, plan_and_commit
from checkout_copy import run as _run

from mlebench.execution.docker import images
from mlebench.planning.plan import stage_code
from mlebench_spec.sources import closure
from mlebench_spec.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[1]
COMP = "titanic-lite"
GRID = [
    "competition_set=custom",
    f"competition_set.ids=[{COMP}]",
    "agent=[dummy,baseline]",
    "seeds=[0]",
    "runner=local",
]
KINDS = ("fetch", "prepare", "selfcheck", "audit", "run_agent", "grade", "integrity", "report")
DATA_KINDS = {"fetch", "prepare", "selfcheck", "audit"}
BYTECODE = {"PYTHONDONTWRITEBYTECODE": ""}
"""Python writes ``__pycache__/`` as it imports (an empty value unsets the flag)."""


def _kind(stage: str) -> str:
    return stage.split(":")[-1].split("-")[0]


def _deps(repo: Path) -> dict[str, list[str]]:
    """Every stage's deps (repository-relative paths), keyed as `dvc status --json` names the stage."""
    out = {}
    for path in [repo / "dvc.yaml", *sorted((repo / "pipelines").rglob("dvc.yaml"))]:
        rel = path.relative_to(repo).as_posix()
        for name, stage in load_yaml(path)["stages"].items():
            out[name if rel == "dvc.yaml" else f"{rel}:{name}"] = stage.get("deps", [])
    return out


def _stale(repo: Path) -> set[str]:
    return set(json.loads(_run(["dvc", "status", "--json"], repo).stdout or "{}"))


def _listing(deps: dict[str, list[str]], file: str) -> set[str]:
    """Return the stages that list ``file`` or a folder it is in (``mlebench plan`` folds whole folders)."""
    return {s for s, listed in deps.items() if any(file == d or file.startswith(f"{d}/") for d in listed)}


def _code(repo: Path, listed: list[str]) -> list[str]:
    """Return the Python files among ``listed``, those inside listed folders included."""
    out = []
    for dep in listed:
        if (repo / dep).is_dir():
            out += [p.relative_to(repo).as_posix() for p in sorted((repo / dep).rglob("*.py"))]
        elif dep.endswith(".py"):
            out.append(dep)
    return out


@contextmanager
def _edited(path: Path) -> Iterator[None]:
    """Append a comment to ``path`` for the duration of the block, then put its bytes back."""
    original = path.read_bytes()
    try:
        path.write_bytes(original + b"\n# an edit that changes nothing but the bytes\n")
        yield
    finally:
        path.write_bytes(original)


def _probe(repo: Path, deps: dict[str, list[str]], kind: str) -> tuple[str, str]:
    """Pick a stage of ``kind`` and the code file in its deps (or a listed folder) the fewest stages list.

    The stage's own entry module (``stages/<kind>.py``) is left out: the point is that imports are followed.
    """
    stage = min(s for s in deps if _kind(s) == kind)
    code = [d for d in _code(repo, deps[stage]) if d != f"stages/{kind}.py"]
    assert code, f"{stage} lists no code besides its entry module: {deps[stage]}"
    return stage, min(code, key=lambda d: (len(_listing(deps, d)), d))


@pytest.fixture(scope="module")
def grid(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Copy the checkout, plan the reduced grid, reproduce it with bytecode writing on, commit the locks."""
    repo = copy_checkout(tmp_path_factory.mktemp("lineage"))
    plan_and_commit(repo, GRID)
    _run(["dvc", "repro"], repo, env=BYTECODE)
    _run(["git", "add", "-A"], repo)
    _run(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "reproduced"], repo)
    return repo


@pytest.mark.slow
def test_the_reproduced_grid_is_clean_though_its_stages_wrote_bytecode(grid: Path) -> None:
    assert list((grid / "mlebench").rglob("*.pyc")), "the stages wrote no bytecode: nothing tested"
    assert _stale(grid) == set()
    assert {_kind(s) for s in _deps(grid)} == set(KINDS)


@pytest.mark.slow
@pytest.mark.parametrize("kind", KINDS)
def test_editing_an_imported_module_makes_exactly_the_stages_that_run_it_stale(grid: Path, kind: str) -> None:
    deps = _deps(grid)
    stage, probe = _probe(grid, deps, kind)
    with _edited(grid / probe):
        stale = _stale(grid)
    assert stage in stale, f"editing {probe} must make {stage} stale; stale: {sorted(stale)}"
    assert stale == _listing(deps, probe), f"edited {probe}"
    assert _stale(grid) == set()


@pytest.mark.slow
def test_editing_the_local_runner_leaves_the_data_stages_alone(grid: Path) -> None:
    with _edited(grid / "mlebench" / "execution" / "local.py"):
        stale = _stale(grid)
    kinds = {_kind(s) for s in stale}
    assert "run_agent" in kinds and not kinds & DATA_KINDS, sorted(stale)


@pytest.mark.slow
def test_editing_the_metric_registry_or_a_metric_leaves_agent_runs_alone(grid: Path) -> None:
    from graders.registry import get_metric
    from mlebench_spec.declarations import load_competition

    fn = get_metric(load_competition(COMP, ROOT).metric.name).fn
    metric = Path(sys.modules[fn.__module__].__file__).resolve().relative_to(ROOT).as_posix()
    for file in ("graders/registry.py", metric):
        with _edited(grid / file):
            kinds = {_kind(s) for s in _stale(grid)}
        assert "grade" in kinds and "run_agent" not in kinds, f"edited {file}: stale kinds {sorted(kinds)}"


@pytest.mark.slow
def test_a_fresh_clone_pulls_a_clean_grid_and_bytecode_changes_nothing(grid: Path, tmp_path: Path) -> None:
    _run(["dvc", "push"], grid)
    clone = tmp_path / "clone"
    _run(["git", "clone", "-q", str(grid), str(clone)], tmp_path)
    for remote in ("storage", "answers"):
        _run(
            ["dvc", "remote", "modify", "--local", remote, "url", str(grid.parent / "remote" / remote)], clone
        )
    _run(["dvc", "pull"], clone)
    assert (clone / "grades" / "baseline" / COMP / "0.json").is_file()
    assert (clone / "data" / "prepared" / COMP / "private" / "answers.csv").is_file()
    assert _stale(clone) == set()
    out = _run(["dvc", "repro"], clone).stdout
    assert "Running stage" not in out, out

    importing = "import sys; sys.path.insert(0, 'agents/baseline'); import baseline, graders.grade"
    _run([sys.executable, "-c", importing], clone, env=BYTECODE)
    assert list((clone / "agents" / "baseline").rglob("*.pyc")) and list((clone / "graders").rglob("*.pyc"))
    assert any("agents/baseline" in deps for deps in _deps(clone).values())
    assert _stale(clone) == set()


IMAGES = {
    "env": (images.env_context, images.VALIDATOR),
    "grader": (images.grader_context, images.GRADER_ENTRY),
}


@pytest.mark.parametrize("image", sorted(IMAGES))
def test_an_image_context_holds_only_modules_its_entry_point_imports(image: str) -> None:
    context, entry = IMAGES[image]
    files = images.context_sources(context(ROOT), ROOT)
    assert not [f for f in files if f.startswith("authoring/")], "authoring tools never ship in an image"
    imported = set(closure([entry], ROOT))
    assert [f for f in files if f.endswith(".py") and f not in imported] == []
    assert {f for f in imported if f.endswith(".py")} <= set(files), "the image lacks a module it imports"


def test_agent_runs_depend_on_no_metric_code() -> None:
    grading = [f for f in stage_code("run_agent", ROOT) if f == "graders/registry.py" or "/metrics/" in f]
    assert grading == []


@pytest.mark.parametrize("git", [True, False])
def test_a_folder_whose_files_are_all_deps_is_one_dep(tmp_path: Path, git: bool) -> None:
    from mlebench.planning.plan import folded

    files = ["pkg/__init__.py", "pkg/a.py", "pkg/sub/__init__.py", "pkg/sub/b.py", "other/c.py", "other/d.py"]
    for name in [*files, "pkg/__pycache__/a.cpython-311.pyc", "other/notes.txt"]:
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("x")
    if git:
        _run(["git", "init", "-q"], tmp_path)
    listed = [f for f in files if f != "other/d.py"]
    # pkg/ holds nothing else (bytecode does not count), so it is one dep and pkg/sub/ goes with it;
    # other/ holds a file that is not a dep, so its listed file stays a file
    assert folded(listed, tmp_path) == ["other/c.py", "pkg"]
    assert folded(["pkg/sub/b.py", "pkg/a.py"], tmp_path) == ["pkg/a.py", "pkg/sub/b.py"]  # no __init__s
    assert folded(["pkg/sub/__init__.py", "pkg/sub/b.py"], tmp_path) == ["pkg/sub"]
