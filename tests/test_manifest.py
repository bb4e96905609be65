"""The prepared split's manifest: a tampered answers or public file is refused by every path, naming it.

Measured before the manifest existed: flipping 39 labels of titanic-lite's private/answers.csv left
`mlebench grade-sample` grading against the tampered file without a word. Each path here gets a checkout
of its own (titanic-lite copied with its manifest), and the same tampering.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from graders.grade import grade
from mlebench.cli import main as cli
from mlebench.execution.grading import grade_cell
from mlebench.execution.runners import run_cell
from mlebench.reporting.bundle import build_bundle
from mlebench.reporting.verify import verify_bundle
from mlebench.stage import run_stage
from mlebench_spec.cell import Cell
from mlebench_spec.declarations import load_competition
from mlebench_spec.errors import DataError
from mlebench_spec.files import write_text
from mlebench_spec.manifest import MANIFEST, split_sha256, verify_split
from mlebench_spec.params import AgentConfig, DockerSettings, Hardware, validate_plan
from stages.grade import main as grade_stage

ROOT = Path(__file__).resolve().parents[1]
CID = "titanic-lite"
HW = Hardware(name="cpu", cpus=1, memory="1g", shm_size="64m", pids=64, gpus=0, time_limit_secs=60)
DEAD = "tcp://127.0.0.1:9"
"""A Docker host nothing listens on: a path that reached the engine would fail differently."""


@pytest.fixture
def checkout(tmp_path: Path, prepare_once) -> Path:
    """Build a checkout with titanic-lite prepared (manifest included) and a cell that submitted a sample."""
    root = tmp_path / "checkout"
    root.mkdir()
    for name in ("competitions", "graders", "agents", "conf", "params.yaml"):
        (root / name).symlink_to(ROOT / name)
    prepared = prepare_once(CID)
    shutil.copytree(prepared.out, root / "data" / "prepared" / CID)
    cell = Cell.planned(CID, "dummy", 0, root)
    cell.run_dir.mkdir(parents=True)
    shutil.copyfile(cell.public / "sample_submission.csv", cell.run_dir / "submission.csv")
    return root


def _flip_labels(answers: Path, n: int = 39) -> None:
    frame = pd.read_csv(answers)
    frame.loc[: n - 1, "Survived"] = 1 - frame.loc[: n - 1, "Survived"]
    frame.to_csv(answers, index=False)


def _tamper_answers(root: Path) -> Path:
    answers = Cell.planned(CID, "dummy", 0, root).private / "answers.csv"
    _flip_labels(answers)
    return answers


def test_prepare_lists_every_public_and_private_file_outside_both(checkout: Path) -> None:
    prepared = checkout / "data" / "prepared" / CID
    files = json.loads((prepared / MANIFEST).read_text())["files"]
    assert set(files["private"]) == {"answers.csv"}
    assert {"train.csv", "test.csv", "sample_submission.csv", "description.md"} <= set(files["public"])
    for side in ("public", "private"):
        assert not (prepared / side / MANIFEST).exists()
        assert verify_split(prepared / side) == split_sha256(prepared / side)


def test_an_untampered_split_grades_as_before(checkout: Path) -> None:
    cell = Cell.planned(CID, "dummy", 0, checkout)
    expected = grade(load_competition(CID), cell.run_dir / "submission.csv", cell.private).score
    record = grade_cell(cell, grader="host").to_json()
    assert record["score"] == expected and record["score"] is not None


def test_the_grade_stage_refuses_tampered_answers_naming_the_file(
    checkout: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("MLEBENCH_ROOT", str(checkout))
    answers = _tamper_answers(checkout)
    assert run_stage(grade_stage, ["--competition", CID, "--agent", "dummy", "--seed", "0"]) == 2
    err = capsys.readouterr().err
    assert f"{answers}: sha256" in err and "does not match its manifest" in err
    assert not Cell.planned(CID, "dummy", 0, checkout).grade_path.exists()


@pytest.mark.parametrize("grader", ["host", "docker"])
def test_host_and_container_grading_refuse_tampered_answers(
    checkout: Path, grader: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("DOCKER_HOST", DEAD)  # refused before any engine is asked
    answers = _tamper_answers(checkout)
    with pytest.raises(DataError, match=f"{answers}: sha256"):
        grade_cell(Cell.planned(CID, "dummy", 0, checkout), grader=grader)


def test_grade_sample_and_grade_refuse_tampered_answers(
    checkout: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = checkout / "data" / "prepared"
    submission = Cell.planned(CID, "dummy", 0, checkout).run_dir / "submission.csv"
    assert cli(["grade-sample", str(submission), CID, "--data-dir", str(data)]) == 0
    before = json.loads(capsys.readouterr().out)["score"]
    answers = _tamper_answers(checkout)
    assert cli(["grade-sample", str(submission), CID, "--data-dir", str(data)]) == 2
    assert f"{answers}: sha256" in capsys.readouterr().err
    jsonl = tmp_path / "subs.jsonl"
    jsonl.write_text(json.dumps({"competition_id": CID, "submission_path": str(submission)}) + "\n")
    out = tmp_path / "out"
    assert cli(["grade", "--submission", str(jsonl), "--output-dir", str(out), "--data-dir", str(data)]) == 2
    assert f"{answers}: sha256" in capsys.readouterr().err and not out.exists()
    assert before is not None


def test_verify_bundle_refuses_to_regrade_against_tampered_answers(checkout: Path, tmp_path: Path) -> None:
    cell = Cell.planned(CID, "dummy", 0, checkout)
    agent = {
        "path": "agents/dummy",
        "command": ["python", "main.py"],
        "disclosures": {"models": [], "uses_test_feedback": False, "web_search": False},
    }
    plan = validate_plan(
        {
            "agent": {"dummy": agent},
            "competition_set": {"name": "custom", "ids": [CID]},
            "hardware": HW.model_dump(),
            "seeds": [0],
            "runner": "local",
        },
        "test plan",
    )
    write_text(checkout / "params.yaml", json.dumps(plan.model_dump(mode="json")))
    grade_cell(cell, grader="host").write(cell.grade_path)
    bundle = tmp_path / "bundle"
    build_bundle(plan, "dummy", bundle, checkout)
    answers = _tamper_answers(checkout)
    result = verify_bundle(bundle, checkout)
    assert not result.ok and result.regraded == 0
    assert any(f"{answers}: sha256" in p and "not re-graded" in p for p in result.problems), result.problems


def test_the_run_stage_refuses_a_tampered_public_file_before_the_agent_starts(checkout: Path) -> None:
    agent = AgentConfig(path="agents/dummy", command=["python", "main.py"])
    cell = Cell.planned(CID, "dummy", 0, checkout, agent, HW)
    shutil.rmtree(cell.run_dir)
    train = cell.public / "train.csv"
    train.write_text(train.read_text() + "999,1,1,x,male,30,0,0,X,1.0,,S\n")
    record = run_cell(cell, "local", DockerSettings())
    assert record.status == "infra_error" and not record.submission_exists and record.exit_code is None
    assert "the agent was not started" in record.reason and f"{train}:" in record.reason
    written = json.loads((cell.run_dir / "run.json").read_text())
    assert written["status"] == "infra_error" and not (cell.run_dir / "submission.csv").exists()
    graded = grade_cell(cell).to_json()  # the answers are intact: the cell is recorded, not lost
    assert graded["status"] == "infra_error" and f"{train}:" in graded["reason"]


def test_missing_changed_and_unlisted_files_are_each_named(checkout: Path) -> None:
    private = Cell.planned(CID, "dummy", 0, checkout).private
    (private / "extra.csv").write_text("id\n1\n")
    with pytest.raises(DataError, match="extra.csv: not in .*added after prepare"):
        verify_split(private)
    (private / "extra.csv").unlink()
    (private / "answers.csv").write_text("PassengerId,Survived\n1,0\n")
    with pytest.raises(DataError, match=r"answers.csv: \d+ bytes where .* records \d+"):
        verify_split(private)
    (private / "answers.csv").unlink()
    with pytest.raises(DataError, match="answers.csv: listed in .* but missing"):
        verify_split(private)


def test_a_folder_without_manifest_is_refused_in_the_checkout_and_warned_about_with_data_dir(
    checkout: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """An older prepare (or MLE-bench v1's layout) has no manifest.

    The pipeline's own data is refused with the fix; a folder the user points at with --data-dir is graded
    with a warning that it was not checked.
    """
    (checkout / "data" / "prepared" / CID / MANIFEST).unlink()
    monkeypatch.setenv("MLEBENCH_ROOT", str(checkout))
    submission = Cell.planned(CID, "dummy", 0, checkout).run_dir / "submission.csv"
    assert cli(["grade-sample", str(submission), CID]) == 2
    err = capsys.readouterr().err
    assert "manifest.json is missing" in err and "re-prepare it" in err
    with pytest.raises(DataError, match="manifest.json is missing"):
        grade_cell(Cell.planned(CID, "dummy", 0, checkout), grader="host")
    assert cli(["grade-sample", str(submission), CID, "--data-dir", str(checkout / "data" / "prepared")]) == 0
    captured = capsys.readouterr()
    assert "WARNING" in captured.err and "unchecked" in captured.err
    assert json.loads(captured.out)["status"] == "ok"
