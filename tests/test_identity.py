"""Each planned stage's identity is recorded once, in its dvc.yaml entry, and read from there.

The plan derives every stage's name and command from its :class:`~mlebench_spec.identity.StageIdentity`;
the scheduler reads the identity back from DVC's own stage (``meta.identity``), never from a name or a folder.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from mlebench.scheduling.dvc_stages import OTHER, Pipelines
from mlebench_spec.errors import ConfigError
from mlebench_spec.identity import StageIdentity, stage_kinds
from mlebench_spec.yamlio import load_yaml

ROOT = Path(__file__).resolve().parents[1]


def _planned() -> dict[str, dict]:
    stages = {}
    for path in [ROOT / "dvc.yaml", *sorted((ROOT / "pipelines").rglob("dvc.yaml"))]:
        for name, entry in load_yaml(path)["stages"].items():
            stages[f"{path.relative_to(ROOT).as_posix()}:{name}"] = entry
    return stages


def test_every_planned_stage_records_its_identity_and_is_named_and_run_by_it() -> None:
    kinds = set(stage_kinds(ROOT))
    seen = set()
    for address, entry in _planned().items():
        ident = StageIdentity.from_meta(entry.get("meta"), address)
        assert ident is not None, f"{address} records no identity"
        assert ident.kind in kinds, address
        assert address.rsplit(":", 1)[1] == ident.name
        assert entry["cmd"].startswith(ident.command()), address
        seen.add(ident.kind)
    assert {"fetch", "prepare", "run_agent", "grade", "integrity", "report"} <= seen


def test_stage_kinds_are_the_stage_modules() -> None:
    assert set(stage_kinds(ROOT)) == {p.stem for p in (ROOT / "stages").glob("*.py") if p.stem != "__init__"}


def test_identity_round_trips_and_bad_meta_is_named() -> None:
    ident = StageIdentity("grade", "titanic-lite", "dummy", 2)
    assert StageIdentity.from_meta(ident.meta(), "x") == ident
    assert ident.cell == ("dummy", 2) and ident.name == "grade-dummy-s2"
    assert ident.command() == "python -m stages.grade --competition titanic-lite --agent dummy --seed 2"
    assert StageIdentity.from_meta(None, "x") is None
    with pytest.raises(ConfigError, match="pipelines/a/dvc.yaml:s: meta.identity .* re-run `mlebench plan`"):
        StageIdentity.from_meta({"identity": {"competition": "a"}}, "pipelines/a/dvc.yaml:s")
    with pytest.raises(ConfigError, match="both an agent and a seed"):
        StageIdentity("grade", "a", "dummy")


def test_the_scheduler_reads_identity_from_dvc_not_from_names(tmp_path: Path) -> None:
    """A stage whose name says one cell and whose meta says another is the meta's; no meta is ``other``."""
    import subprocess

    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["dvc", "init", "-q"], cwd=tmp_path, check=True)
    (tmp_path / "in.txt").write_text("x")
    meta = StageIdentity("grade", "comp-b", "agent-c", 7).meta()
    (tmp_path / "dvc.yaml").write_text(
        "stages:\n"
        "  run_agent-a-s0:\n    cmd: cp in.txt o\n    deps: [in.txt]\n    outs: [o]\n"
        f"    meta: {meta}\n"
        "  plain:\n    cmd: cp in.txt p\n    deps: [in.txt]\n    outs: [p]\n"
    )
    pipelines = Pipelines(tmp_path)
    try:
        by_name = {s.name: s for s in pipelines.stages()}
    finally:
        pipelines.close()
    named = by_name["run_agent-a-s0"]
    assert (named.kind, named.identity.competition, named.cell) == ("grade", "comp-b", ("agent-c", 7))
    assert by_name["plain"].identity == OTHER and by_name["plain"].cell is None
