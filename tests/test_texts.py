"""`descriptions.source: mlebench`: v1's description and instructions from a checkout, checked by git blob id.

The fixture checkout is a temporary folder; the blob ids are computed here with `git hash-object`, so the
check is tested against git itself, not against our own hashing.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from checkout_copy import competition_stages
from pydantic import ValidationError

from mlebench.data.prepare import prepare_competition
from mlebench.execution import contract
from mlebench.execution.runners import cell_texts
from mlebench.planning.plan import compose, render, resolve
from mlebench_spec.cell import Cell
from mlebench_spec.declarations import parse_declaration
from mlebench_spec.errors import ConfigError
from mlebench_spec.params import TextSettings

ROOT = Path(__file__).resolve().parents[1]
V1_TEXT = "mlebench/competitions/toy/description.md"
V1_INSTRUCTIONS = "environment/instructions.txt"
V1_OBFUSCATED = "mlebench/competitions/toy/description_obfuscated.md"
V1_INSTRUCTIONS_OBFUSCATED = "environment/instructions_obfuscated.txt"
TOY = """id: toy
name: Toy
version: 1
complexity: dev
category: tabular
dataset_size: "0 MB"
source: {kind: kaggle, slug: toy}
description: description.md
v1:
  leaderboard: {path: mlebench/competitions/toy/leaderboard.csv, sha256: %s, size: 10}
  description: {path: %s, git_blob: %s}
split: {method: random, test_fraction: 0.5}
submission: {id_column: id, columns: [id, y]}
metric: {name: accuracy}
"""
PREPARE = """import pandas as pd


def prepare(raw, public, private, comp):
    pd.DataFrame({"id": [1, 2], "x": [0.5, 0.25], "y": [0, 1]}).to_csv(public / "train.csv", index=False)
    pd.DataFrame({"id": [3, 4], "x": [0.1, 0.2]}).to_csv(public / "test.csv", index=False)
    pd.DataFrame({"id": [3, 4], "y": [0, 0]}).to_csv(public / "sample_submission.csv", index=False)
    pd.DataFrame({"id": [3, 4], "y": [1, 0]}).to_csv(private / "answers.csv", index=False)
"""


def _git_blob(data: bytes) -> str:
    return (
        subprocess.run(["git", "hash-object", "--stdin"], input=data, capture_output=True, check=True)
        .stdout.decode()
        .strip()
    )


@pytest.fixture
def toy(tmp_path: Path) -> dict[str, Path]:
    """Make a repository root with one v1 competition, and a v1 checkout whose texts match its pins."""
    checkout = tmp_path / "v1"
    texts = {
        V1_TEXT: b"# The v1 task statement\n\nPredict y.\n",
        V1_INSTRUCTIONS: b"General rules.\n",
        V1_OBFUSCATED: b"# A task\n\nPredict the target.\n",
        V1_INSTRUCTIONS_OBFUSCATED: b"General rules, no names.\n",
    }
    for rel, data in texts.items():
        (checkout / rel).parent.mkdir(parents=True, exist_ok=True)
        (checkout / rel).write_bytes(data)
    folder = tmp_path / "repo" / "competitions" / "toy"
    folder.mkdir(parents=True)
    declaration = TOY % ("ab" * 32, V1_TEXT, _git_blob(texts[V1_TEXT]))
    obfuscated = (
        f"  description_obfuscated: {{path: {V1_OBFUSCATED}, git_blob: {_git_blob(texts[V1_OBFUSCATED])}}}\n"
    )
    (folder / "competition.yaml").write_text(declaration.replace("split:", obfuscated + "split:"))
    (folder / "description.md").write_text("# Our toy text\n")
    (folder / "prepare.py").write_text(PREPARE)
    (tmp_path / "raw").mkdir()
    pin = tmp_path / "instructions.v1.yaml"
    blob = _git_blob(texts[V1_INSTRUCTIONS_OBFUSCATED])
    pin.write_text(
        f"path: {V1_INSTRUCTIONS}\ngit_blob: {_git_blob(texts[V1_INSTRUCTIONS])}\n"
        f"obfuscated: {{path: {V1_INSTRUCTIONS_OBFUSCATED}, git_blob: {blob}}}\n"
    )
    return {"checkout": checkout, "folder": folder, "raw": tmp_path / "raw", "pin": pin, "tmp": tmp_path}


def _v1(toy: dict[str, Path]) -> TextSettings:
    return TextSettings(source="mlebench", checkout=str(toy["checkout"]))


def test_prepare_gives_the_agent_v1s_description_when_its_blob_id_matches(toy: dict[str, Path]) -> None:
    comp = parse_declaration(toy["folder"] / "competition.yaml")
    out = toy["tmp"] / "prepared"
    prepare_competition(comp, toy["raw"], out, folder=toy["folder"], texts=_v1(toy))
    assert (out / "public" / "description.md").read_bytes() == (toy["checkout"] / V1_TEXT).read_bytes()
    prepare_competition(comp, toy["raw"], out, folder=toy["folder"])  # the default: our own text
    assert (out / "public" / "description.md").read_text() == "# Our toy text\n"


@pytest.mark.parametrize(
    ("change", "message"),
    [("edit", "has git blob id"), ("delete", "does not exist")],
)
def test_a_mismatching_or_missing_v1_description_is_refused(
    toy: dict[str, Path], change: str, message: str
) -> None:
    comp = parse_declaration(toy["folder"] / "competition.yaml")
    text = toy["checkout"] / V1_TEXT
    if change == "edit":
        text.write_bytes(text.read_bytes().replace(b"Predict", b"predict"))
    else:
        text.unlink()
    out = toy["tmp"] / "prepared"
    with pytest.raises(ConfigError, match=message) as err:
        prepare_competition(comp, toy["raw"], out, folder=toy["folder"], texts=_v1(toy))
    assert str(text) in str(err.value) and "toy description" in str(err.value)
    assert not out.exists()


def test_the_mlebench_source_needs_a_checkout() -> None:
    with pytest.raises(ValidationError, match="descriptions.checkout"):
        TextSettings(source="mlebench")


def _cell(toy: dict[str, Path], texts: TextSettings, description: bytes) -> Cell:
    public = toy["tmp"] / "public"
    public.mkdir(exist_ok=True)
    (public / "description.md").write_bytes(description)
    root = toy["folder"].parents[1]
    return Cell("toy", "dummy", 0, root, public, toy["tmp"] / "private", toy["tmp"] / "run", texts=texts)


def test_the_runs_lineage_names_the_texts_the_agent_read(
    toy: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(contract, "V1_INSTRUCTIONS", toy["pin"])
    v1_text = (toy["checkout"] / V1_TEXT).read_bytes()
    cell = _cell(toy, _v1(toy), v1_text)
    assert contract.instructions_file(cell) == toy["checkout"] / V1_INSTRUCTIONS
    texts = cell_texts(cell)
    assert texts["source"] == "mlebench" and texts["description_git_blob"] == _git_blob(v1_text)
    assert texts["instructions_git_blob"] == _git_blob(b"General rules.\n")
    ours = cell_texts(_cell(toy, TextSettings(), b"# Our toy text\n"))
    assert ours["source"] == "ours"
    assert ours["instructions_git_blob"] == _git_blob(contract.INSTRUCTIONS.read_bytes())


def test_a_split_prepared_with_other_texts_or_other_instructions_is_refused(
    toy: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(contract, "V1_INSTRUCTIONS", toy["pin"])
    with pytest.raises(ConfigError, match="prepared with other texts"):
        cell_texts(_cell(toy, _v1(toy), b"# Our toy text\n"))
    (toy["checkout"] / V1_INSTRUCTIONS).write_bytes(b"General rules, edited.\n")
    cell = _cell(toy, _v1(toy), (toy["checkout"] / V1_TEXT).read_bytes())
    with pytest.raises(ConfigError, match="v1's instructions: .* has git blob id"):
        contract.instructions_file(cell)


def _stage(plan_overrides: list[str], cid: str, stage: str) -> dict:
    plan = resolve(compose(plan_overrides, root=ROOT), ROOT)
    return competition_stages(render(plan, ROOT), cid, ROOT)[stage]


def test_prepare_and_run_depend_on_the_setting_and_the_checked_files() -> None:
    cid = "spooky-author-identification"
    one = ["competition_set=custom", f"competition_set.ids=[{cid}]", "seeds=[0]", "agent=[dummy]"]
    ours = _stage(one, cid, "prepare")
    assert "descriptions" in ours["params"] and f"competitions/{cid}/description.md" in ours["deps"]
    v1 = [*one, "descriptions.source=mlebench", "descriptions.checkout=/v1"]
    prepare = _stage(v1, cid, "prepare")
    assert f"/v1/mlebench/competitions/{cid}/description.md" in prepare["deps"]
    assert f"competitions/{cid}/description.md" not in prepare["deps"]
    run = _stage(v1, cid, "run_agent-dummy-s0")
    assert "descriptions" in run["params"] and "/v1/environment/instructions.txt" in run["deps"]
    assert "mlebench/execution/instructions.v1.yaml" in run["deps"]


def test_v1_texts_for_a_competition_v1_does_not_have_is_a_plan_error() -> None:
    with pytest.raises(ConfigError, match="is not an MLE-bench v1 competition"):
        _stage(["descriptions.source=mlebench", "descriptions.checkout=/v1"], "titanic-lite", "prepare")


def test_cli_prepare_checks_v1_descriptions_before_downloading_anything(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from mlebench.cli import main

    cid = "spooky-author-identification"
    args = ["prepare", "-c", cid, "--data-dir", str(tmp_path / "data"), "--v1-descriptions", str(tmp_path)]
    assert main(args) == 1
    err = capsys.readouterr().err
    assert f"{cid}: FAILED: ConfigError: {cid} description: {tmp_path}/mlebench/competitions/{cid}" in err
    assert not (tmp_path / "data" / ".downloads").exists()


def test_the_texts_reach_run_json_and_the_grading_records_lineage(prepare_once, tmp_path: Path) -> None:
    import json

    from mlebench.execution.grading import grade_cell
    from mlebench.execution.runners import run_cell
    from mlebench_spec.params import AgentConfig, DockerSettings, Hardware

    prepared = prepare_once("titanic-lite")
    agent = AgentConfig(path="agents/dummy", command=["python", "main.py"])
    hw = Hardware(name="test", cpus=1, memory="1g", shm_size="64m", pids=64, gpus=0, time_limit_secs=60)
    cell = Cell("titanic-lite", "dummy", 0, ROOT, prepared.public, prepared.private, tmp_path, agent, hw)
    run_cell(cell, "local", DockerSettings())
    texts = json.loads((tmp_path / "run.json").read_text())["texts"]
    description = (ROOT / "competitions" / "titanic-lite" / "description.md").read_bytes()
    assert texts["source"] == "ours" and texts["description_git_blob"] == _git_blob(description)
    assert grade_cell(cell).to_json()["lineage"]["texts"] == texts


def _obfuscated(toy: dict[str, Path]) -> TextSettings:
    return TextSettings(source="mlebench", checkout=str(toy["checkout"]), obfuscate=True)


def test_obfuscate_gives_the_agent_v1s_obfuscated_texts_and_the_lineage_says_so(
    toy: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """v1's OBFUSCATE: description_obfuscated.md and instructions_obfuscated.txt, each checked by blob id."""
    monkeypatch.setattr(contract, "V1_INSTRUCTIONS", toy["pin"])
    comp = parse_declaration(toy["folder"] / "competition.yaml")
    out = toy["tmp"] / "prepared"
    prepare_competition(comp, toy["raw"], out, folder=toy["folder"], texts=_obfuscated(toy))
    obfuscated = (toy["checkout"] / V1_OBFUSCATED).read_bytes()
    assert (out / "public" / "description.md").read_bytes() == obfuscated
    cell = _cell(toy, _obfuscated(toy), obfuscated)
    assert contract.instructions_file(cell) == toy["checkout"] / V1_INSTRUCTIONS_OBFUSCATED
    texts = cell_texts(cell)
    assert texts["source"] == "mlebench" and texts["obfuscated"] is True
    assert texts["description_git_blob"] == _git_blob(obfuscated)
    assert texts["instructions_git_blob"] == _git_blob(b"General rules, no names.\n")
    assert "obfuscated" not in cell_texts(_cell(toy, _v1(toy), (toy["checkout"] / V1_TEXT).read_bytes()))
    with pytest.raises(
        ConfigError, match="not that of v1's obfuscated description .* prepared with other texts"
    ):
        cell_texts(_cell(toy, _obfuscated(toy), (toy["checkout"] / V1_TEXT).read_bytes()))
    (toy["checkout"] / V1_INSTRUCTIONS_OBFUSCATED).write_bytes(b"Edited.\n")
    with pytest.raises(ConfigError, match="v1's obfuscated instructions: .* has git blob id"):
        contract.instructions_file(cell)


def test_obfuscate_refuses_a_changed_text_or_a_declaration_without_the_pin(toy: dict[str, Path]) -> None:
    comp = parse_declaration(toy["folder"] / "competition.yaml")
    text = toy["checkout"] / V1_OBFUSCATED
    text.write_bytes(text.read_bytes() + b"more\n")
    with pytest.raises(ConfigError, match="toy obfuscated description: .* has git blob id"):
        prepare_competition(comp, toy["raw"], toy["tmp"] / "p", folder=toy["folder"], texts=_obfuscated(toy))
    bare = comp.model_copy(update={"v1": comp.v1.model_copy(update={"description_obfuscated": None})})
    with pytest.raises(ConfigError, match="records no v1.description_obfuscated"):
        prepare_competition(bare, toy["raw"], toy["tmp"] / "p", folder=toy["folder"], texts=_obfuscated(toy))
    with pytest.raises(ValidationError, match="needs descriptions.source 'mlebench'"):
        TextSettings(obfuscate=True)


def test_every_v1_competition_pins_its_obfuscated_description() -> None:
    from mlebench_spec.declarations import all_competition_ids, load_competition
    from mlebench_spec.yamlio import load_yaml

    v1 = [load_competition(c).v1 for c in all_competition_ids() if load_competition(c).v1 is not None]
    assert len(v1) == 82 and all(f.description_obfuscated is not None for f in v1)
    assert all(
        f.description_obfuscated.path
        == f.description.path.replace("description.md", "description_obfuscated.md")
        for f in v1
    )
    assert load_yaml(contract.V1_INSTRUCTIONS)["obfuscated"]["path"] == V1_INSTRUCTIONS_OBFUSCATED


def test_obfuscated_texts_are_deps_of_prepare_and_run() -> None:
    cid = "spooky-author-identification"
    one = ["competition_set=custom", f"competition_set.ids=[{cid}]", "seeds=[0]", "agent=[dummy]"]
    v1 = [*one, "descriptions.source=mlebench", "descriptions.checkout=/v1", "descriptions.obfuscate=true"]
    prepare = _stage(v1, cid, "prepare")
    assert f"/v1/mlebench/competitions/{cid}/description_obfuscated.md" in prepare["deps"]
    assert f"/v1/mlebench/competitions/{cid}/description.md" not in prepare["deps"]
    run = _stage(v1, cid, "run_agent-dummy-s0")
    assert "/v1/environment/instructions_obfuscated.txt" in run["deps"]
    assert "/v1/environment/instructions.txt" not in run["deps"]


def test_the_report_says_which_cells_read_obfuscated_texts() -> None:
    from mlebench.reporting.markdown import texts_line
    from mlebench.reporting.report import task_texts

    def record(texts: dict) -> dict:
        return {"lineage": {"texts": texts}}

    records = [record({"source": "mlebench", "obfuscated": True})] * 2 + [record({"source": "mlebench"})]
    counted = task_texts(records)
    assert counted == {
        "cells": {"mlebench": 1, "mlebench-obfuscated": 2},
        "comparable_with_published_leaderboard": False,
    }
    line = texts_line({"task_texts": counted})
    assert "mlebench-obfuscated in 2" in line and "obfuscated texts" in line
    assert task_texts([record({"source": "mlebench"})])["comparable_with_published_leaderboard"]


def test_cli_prepare_obfuscated_needs_the_checkout(capsys: pytest.CaptureFixture[str]) -> None:
    from mlebench.cli import main

    assert main(["prepare", "-c", "spooky-author-identification", "--obfuscated"]) == 2
    assert "--obfuscated takes v1's obfuscated texts: name the checkout with --v1-descriptions" in (
        capsys.readouterr().err
    )
