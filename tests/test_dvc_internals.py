"""DVC's private internals the scheduler patches or calls are all still there, in the installed DVC.

``mlebench/scheduling/dvc_internals.py`` holds every patch of DVC and every private DVC name the project
uses, each registered with what it needs (:data:`~mlebench.scheduling.dvc_internals.NEEDS`). A DVC release
that renames, removes or re-signs one fails here, naming the patch, before a user's ``mlebench run`` does.
"""

from __future__ import annotations

import ast
from importlib.metadata import version
from pathlib import Path

import pytest

from mlebench.scheduling import dvc_internals
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
    }
    found = dvc_internals.drift(needs)
    assert found["fine"] == []
    assert found["gone"] == ["dvc.stage.cache has no _no_such_function"]
    assert "takes (stage, dry, run_env)" in found["resigned"][0]
    assert "does not import" in found["no_module"][0]
    monkeypatch.setattr(dvc_internals, "NEEDS", needs)
    with pytest.raises(ConfigError, match=r"gone: dvc.stage.cache has no _no_such_function.*pyproject.toml"):
        dvc_internals.check()


def test_every_patch_is_registered_and_nothing_else_reaches_into_dvc() -> None:
    """Each patch or private call in dvc_internals is registered in NEEDS, and nothing else reaches DVC's.

    No other module of ours imports a private DVC name or uses a private DVC attribute a patch covers.
    """
    tree = ast.parse((ROOT / "mlebench/scheduling/dvc_internals.py").read_text(encoding="utf-8"))
    public = {n.name for n in tree.body if isinstance(n, ast.FunctionDef) and not n.name.startswith("_")}
    assert public - {"drift", "check"} == set(dvc_internals.NEEDS)
    private_attrs = {
        part
        for needs in dvc_internals.NEEDS.values()
        for need in needs
        for part in need.split("(")[0].split(":")[1].split(".")
        if part.startswith("_")
    }
    offenders = []
    for package in ("mlebench", "stages", "graders"):
        for path in sorted((ROOT / package).rglob("*.py")):
            if path.name == "dvc_internals.py":
                continue
            where = path.relative_to(ROOT)
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "dvc":
                    names = [node.module or "", *(a.name for a in node.names)]
                    if any(part.startswith("_") for name in names for part in name.split(".")):
                        offenders.append(f"{where}:{node.lineno} from {node.module} import ...")
                if isinstance(node, ast.Attribute) and node.attr in private_attrs:
                    offenders.append(f"{where}:{node.lineno} .{node.attr}")
    assert not offenders, offenders
