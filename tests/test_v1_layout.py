"""Grading from a data directory in MLE-bench v1's layout: ``<dir>/<id>/prepared/{public,private}``.

Every Kaggle competition is prepared from its fixture and placed in v1's layout, holding only the files our
prepare writes (v1's private file names and columns: nothing derived for the grader). Its gold submission
graded through ``--data-dir`` must score and win gold. A directory in neither layout is refused, naming the
paths it looked for.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from checkout_copy import competition_stages
from kaggle_fixtures import KAGGLE_IDS, prepare_fixture

from mlebench.cli import main
from mlebench.data.selfcheck import gold_submission
from mlebench.planning.plan import compose, render, resolve
from mlebench.reporting.records import RunRecord
from mlebench.stage import run_stage
from mlebench_spec.cell import Cell
from mlebench_spec.datadir import prepared_in
from mlebench_spec.declarations import Submission, load_competition
from mlebench_spec.errors import ConfigError
from mlebench_spec.files import utc_now, write_text
from mlebench_spec.hashing import sha256_tree
from mlebench_spec.params import validate_plan
from stages import grade as grade_stage

ROOT = Path(__file__).resolve().parents[1]

Prepared = Callable[[str], Path]
"""Prepare a competition into the shared v1-layout folder (once); return its perfect submission."""


@pytest.fixture(scope="module")
def v1_data(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Prepared]:
    """Return a v1-layout data directory and the function that fills it, one competition at a time."""
    root = tmp_path_factory.mktemp("v1-data")
    data_dir, work = root / "data", root / "work"
    golds: dict[str, Path] = {}

    def prepare(competition_id: str) -> Path:
        if competition_id not in golds:
            got = prepare_fixture(competition_id, work / competition_id)
            prepared = data_dir / competition_id / "prepared"
            prepared.mkdir(parents=True)
            shutil.move(got.public, prepared / "public")
            shutil.move(got.private, prepared / "private")
            shutil.rmtree(work / competition_id)
            golds[competition_id] = gold_submission(
                got.comp, prepared / "public", prepared / "private", _scratch(root, competition_id)
            )
        return golds[competition_id]

    return data_dir, prepare


def _scratch(root: Path, competition_id: str) -> Path:
    folder = root / "gold" / competition_id
    folder.mkdir(parents=True)
    return folder


@pytest.mark.parametrize("competition_id", KAGGLE_IDS)
def test_grade_sample_reads_v1_layout(
    competition_id: str, v1_data: tuple[Path, Prepared], capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir, prepare = v1_data
    gold = prepare(competition_id)
    assert main(["grade-sample", str(gold), competition_id, "--data-dir", str(data_dir)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["status"] == "ok", report["reason"]
    assert report["score"] is not None and report["gold_medal"], report


def test_grade_jsonl_reads_v1_layout(
    v1_data: tuple[Path, Prepared], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``mlebench grade`` over all the Kaggle competitions at once, with the layout named explicitly."""
    data_dir, prepare = v1_data
    lines = [json.dumps({"competition_id": c, "submission_path": str(prepare(c))}) for c in KAGGLE_IDS]
    (tmp_path / "subs.jsonl").write_text("\n".join(lines) + "\n")
    out = tmp_path / "out"
    args = ["grade", "--submission", str(tmp_path / "subs.jsonl"), "--output-dir", str(out)]
    assert main([*args, "--data-dir", str(data_dir), "--data-layout", "v1"]) == 0
    capsys.readouterr()
    (written,) = out.glob("*_grading_report.json")
    reports = json.loads(written.read_text())["competition_reports"]
    assert [r["competition_id"] for r in reports] == KAGGLE_IDS
    assert [r["competition_id"] for r in reports if not r["gold_medal"]] == []


def test_our_layout_still_grades(
    v1_data: tuple[Path, Prepared], tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data_dir, prepare = v1_data
    cid = "spaceship-titanic"
    gold = prepare(cid)
    ours = tmp_path / "ours"
    shutil.copytree(data_dir / cid / "prepared", ours / cid)
    assert main(["grade-sample", str(gold), cid, "--data-dir", str(ours)]) == 0
    assert json.loads(capsys.readouterr().out)["gold_medal"]
    assert prepared_in(ours, cid) == ours / cid
    assert prepared_in(data_dir, cid) == data_dir / cid / "prepared"


def test_neither_layout_is_refused_naming_both_paths(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    cid = "spaceship-titanic"
    (tmp_path / cid / "public").mkdir(parents=True)  # a folder, but no answers in either place
    (tmp_path / "sub.csv").write_text("PassengerId,Transported\n")
    assert main(["grade-sample", str(tmp_path / "sub.csv"), cid, "--data-dir", str(tmp_path)]) == 2
    message = capsys.readouterr().err
    assert str(tmp_path / cid / "private") in message
    assert str(tmp_path / cid / "prepared" / "private") in message
    assert "MLE-bench v1's layout" in message and "this project's layout" in message


def test_a_named_layout_is_not_guessed(tmp_path: Path) -> None:
    cid = "spaceship-titanic"
    (tmp_path / cid / "private").mkdir(parents=True)
    with pytest.raises(ConfigError, match=str(tmp_path / cid / "prepared" / "private")):
        prepared_in(tmp_path, cid, "v1")
    with pytest.raises(ConfigError, match="unknown"):
        prepared_in(tmp_path, cid, "v2")


def test_both_layouts_at_once_must_be_named(tmp_path: Path) -> None:
    cid = "spaceship-titanic"
    (tmp_path / cid / "private").mkdir(parents=True)
    (tmp_path / cid / "prepared" / "private").mkdir(parents=True)
    with pytest.raises(ConfigError, match="both layouts.*--data-layout"):
        prepared_in(tmp_path, cid)
    assert prepared_in(tmp_path, cid, "ours") == tmp_path / cid


@pytest.mark.parametrize(
    ("competition_id", "column", "source"),
    [
        ("hubmap-kidney-segmentation", "predicted", "encoding"),
        ("jigsaw-unintended-bias-in-toxicity-classification", "prediction", "toxicity"),
    ],
)
def test_derived_answer_columns_are_not_stored(
    competition_id: str, column: str, source: str, v1_data: tuple[Path, Prepared]
) -> None:
    """The answers file is v1's (no copy of a column under the submission's name); the grader derives it.

    Regression: these competitions' answers used to carry an extra column only our prepare wrote, so v1's
    prepared answers raised ValueError instead of grading.
    """
    data_dir, prepare = v1_data
    prepare(competition_id)
    comp = load_competition(competition_id)
    header = (data_dir / competition_id / "prepared" / "private" / comp.submission.answers).open().readline()
    assert column not in header.strip().split(",") and source in header.strip().split(",")
    assert comp.submission.derived_columns == {column: source}


def _checkout(root: Path, data: dict[str, str]) -> Path:
    """Make a checkout sharing this one's competitions and conf, with the ``data`` settings in params.yaml."""
    root.mkdir(parents=True)
    for name in ("competitions", "graders", "agents", "conf"):
        (root / name).symlink_to(ROOT / name)
    plan = {
        "agent": {
            "dummy": {
                "path": "agents/dummy",
                "command": ["python", "main.py"],
                "disclosures": {"models": [], "uses_test_feedback": False, "web_search": False},
            }
        },
        "competition_set": {"name": "custom", "ids": ["titanic-lite"]},
        "hardware": {
            "name": "cpu",
            "cpus": 1,
            "memory": "1g",
            "shm_size": "64m",
            "pids": 64,
            "gpus": 0,
            "time_limit_secs": 60,
        },
        "seeds": [0],
        "runner": "local",
        "data": data,
    }
    write_text(root / "params.yaml", json.dumps(validate_plan(plan, "test").model_dump(mode="json")))
    return root


def test_grade_stage_reads_the_data_dir_params_name(
    prepare_once, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``data.dir`` in params.yaml points the grade stage at a v1-layout folder; its lineage hashes it."""
    prepared = prepare_once("titanic-lite")
    v1 = tmp_path / "v1data" / "titanic-lite" / "prepared"
    shutil.copytree(prepared.public, v1 / "public")
    shutil.copytree(prepared.private, v1 / "private")
    root = _checkout(tmp_path / "checkout", {"dir": str(tmp_path / "v1data"), "layout": "auto"})
    plan = validate_plan(json.loads((root / "params.yaml").read_text()), "test")
    cell = Cell.planned("titanic-lite", "dummy", 0, root, plan.agent["dummy"], plan.hardware)
    cell.run_dir.mkdir(parents=True)
    shutil.copyfile(v1 / "private" / "answers.csv", cell.run_dir / "submission.csv")
    now = utc_now()
    seen = dataclasses.replace(cell, public=v1 / "public", private=v1 / "private")  # data.dir's split
    RunRecord.for_cell(
        seen, "local", status="ok", exit_code=0, started_at=now, finished_at=now, submission_exists=True
    ).write(cell.run_dir)
    monkeypatch.setenv("MLEBENCH_ROOT", str(root))
    assert grade_stage.main(["--competition", "titanic-lite", "--agent", "dummy", "--seed", "0"]) == 0
    record = json.loads(cell.grade_path.read_text())
    assert record["status"] == "ok" and record["gold_medal"], record
    assert record["lineage"]["private_sha256"] == sha256_tree(v1 / "private")
    assert not (root / "data").exists()  # nothing read from, or written to, the checkout's data/


def test_grade_stage_refuses_a_data_dir_in_neither_layout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    root = _checkout(tmp_path / "checkout", {"dir": str(tmp_path / "empty"), "layout": "v1"})
    monkeypatch.setenv("MLEBENCH_ROOT", str(root))
    argv = ["--competition", "titanic-lite", "--agent", "dummy", "--seed", "0"]
    assert run_stage(grade_stage.main, argv) == 2
    assert str(tmp_path / "empty" / "titanic-lite" / "prepared" / "private") in capsys.readouterr().err


def test_plan_makes_grade_stages_depend_on_the_data_dir(tmp_path: Path) -> None:
    (tmp_path / "titanic-lite" / "prepared" / "private").mkdir(parents=True)
    ids = ["competition_set=custom", "competition_set.ids=[titanic-lite]", "agent=[dummy]", "seed=one"]
    plan = resolve(compose([*ids, f"data.dir={tmp_path}"]))
    stages = competition_stages(render(plan, ROOT), "titanic-lite", ROOT)
    grade = next(stage for name, stage in stages.items() if name.startswith("grade-"))
    assert str(tmp_path / "titanic-lite" / "prepared" / "private") in grade["deps"]
    assert "data/prepared/titanic-lite/private" not in grade["deps"] and grade["params"] == [
        "data",
        "grading",
    ]
    assert "data/prepared/titanic-lite/private" in stages["selfcheck"]["deps"]  # only grading moves


@pytest.mark.parametrize(
    ("derived", "match"),
    [({"encoding": "predicted"}, "'encoding' must be an answer column"), ({"predicted": "predicted"}, "got")],
)
def test_a_derived_column_must_be_a_submission_answer_column(derived: dict[str, str], match: str) -> None:
    with pytest.raises(ValueError, match=match):
        Submission(id_column="id", columns=["id", "predicted"], derived_columns=derived)
