"""The generated integrity stages: one per cell after its run, with derived deps, its params and one out."""

from __future__ import annotations

from pathlib import Path

from checkout_copy import competition_stages
from ruamel.yaml import YAML

from mlebench.planning.plan import compose, render, resolve

ROOT = Path(__file__).resolve().parents[2]


def _pipeline(cid: str) -> dict:
    overrides = ["competition_set=custom", f"competition_set.ids=[{cid}]", "agent=[dummy]", "seed=one"]
    plan = resolve(compose(overrides, root=ROOT), ROOT)
    files = render(plan, ROOT)
    return {"stages": competition_stages(files, cid, ROOT)}, YAML(typ="safe").load(files[ROOT / "dvc.yaml"])


def test_each_cell_gets_an_integrity_stage_over_its_run() -> None:
    pipeline, root = _pipeline("titanic-lite")
    stage = pipeline["stages"]["integrity-dummy-s0"]
    assert stage["cmd"] == "python -m stages.integrity --competition titanic-lite --agent dummy --seed 0"
    assert stage["outs"] == ["integrity/dummy/titanic-lite/0/integrity.json"]
    # no forbidden list declared, but the package source is forbidden (issue 39): a param on `source` only
    assert stage["params"] == [
        "agent.dummy",
        "integrity",
        {"competitions/titanic-lite/competition.yaml": ["source"]},
    ]
    deps = stage["deps"]
    assert "runs/dummy/titanic-lite/0" in deps and "stages/integrity.py" in deps
    # the checks' own files, not verify-bundle's re-derivations (the CLI imports those, not the stage)
    assert {"mlebench/integrity/checks.py", "mlebench/integrity/stash.py"} <= set(deps)
    assert "mlebench/integrity/bundled.py" not in deps and "mlebench/integrity" not in deps
    # Derived from imports: nothing of the runners, graders or data preparation (files or folders).
    assert not [d for d in deps if f"{d}/".startswith(("graders/", "mlebench/execution/", "agents/"))]
    assert "mlebench/data/prepare.py" not in deps and "fetch_kernels" not in pipeline["stages"]
    assert "integrity/dummy/titanic-lite/0/integrity.json" in root["stages"]["report"]["deps"]


def test_a_kaggle_competition_pulls_its_notebooks_and_depends_on_its_forbidden_list() -> None:
    pipeline, _ = _pipeline("dog-breed-identification")
    kernels = pipeline["stages"]["fetch_kernels"]
    assert kernels["deps"][-1] == "competitions/dog-breed-identification/kernels.txt"
    assert kernels["outs"] == ["data/kernels/dog-breed-identification"]
    stage = pipeline["stages"]["integrity-dummy-s0"]
    assert "data/kernels/dog-breed-identification" in stage["deps"]
    # its declared list, and its Kaggle source, whose competition, archive and notebooks are forbidden too
    keys = ["forbidden_resources", "source"]
    assert {"competitions/dog-breed-identification/competition.yaml": keys} in stage["params"]
    assert "competitions/dog-breed-identification/competition.yaml" not in stage["deps"]
