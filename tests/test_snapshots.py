"""Any-time snapshots: the mark schedule, the settings, taking and grading snapshots, the any-time table.

The local runner's snapshots are taken for real from a phased agent (tests/docker/phased_agent, the same
agent the container test runs) that writes one submission, sleeps past a mark, then writes another.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mlebench.execution import host_process
from mlebench.execution.grading import grade_cell
from mlebench.execution.runners import run_cell
from mlebench.execution.snapshots import (
    SNAPSHOT_JSON,
    marks,
    read_snapshot,
    snapshot_dirs,
    snapshotting,
    take,
)
from mlebench.reporting.anytime import anytime_table, markdown_lines, state_at
from mlebench.reporting.html import to_html
from mlebench.reporting.report import ReportData, aggregate
from mlebench_spec.cell import Cell
from mlebench_spec.errors import ConfigError
from mlebench_spec.hashing import sha256_file
from mlebench_spec.params import AgentConfig, DockerSettings, Hardware, Plan, SnapshotSettings, validate_plan

ROOT = Path(__file__).resolve().parents[1]
CID = "titanic-lite"
PHASED = AgentConfig(path="tests/docker/phased_agent", command=["python", "phased.py"])
HW = Hardware(name="test", cpus=1, memory="1g", shm_size="64m", pids=64, gpus=0, time_limit_secs=60)
DISCLOSED = {"models": [], "uses_test_feedback": False, "web_search": False}


def test_marks_take_the_union_of_intervals_and_fractions_before_the_limit() -> None:
    assert marks(SnapshotSettings(every_secs=600), 1800) == [600, 1200]
    assert marks(SnapshotSettings(fractions=[0.75, 0.25, 0.5]), 86400) == [21600, 43200, 64800]
    assert marks(SnapshotSettings(every_secs=30, fractions=[0.5]), 100) == [30, 50, 60, 90]
    assert marks(SnapshotSettings(every_secs=100), 100) == []  # the limit itself is the final copy
    assert marks(SnapshotSettings(fractions=[0.001]), 100) == []  # rounds to 0: no mark at the start
    assert not SnapshotSettings().enabled and SnapshotSettings(every_secs=1).enabled


@pytest.mark.parametrize(
    "bad, message",
    [
        ({"fractions": [0.5, 1.0]}, "strictly between 0 and 1"),
        ({"fractions": [0.5, 0.5]}, "distinct"),
        ({"every_secs": -5}, "greater than or equal to 0"),
        ({"every_mins": 5}, "Extra inputs"),
    ],
)
def test_bad_snapshot_settings_name_the_key(bad: dict, message: str) -> None:
    plan = _plan_data()
    with pytest.raises(ConfigError, match=rf"snapshots\..*{message}|{message}"):
        validate_plan({**plan, "snapshots": bad}, "params.yaml")


def test_snapshots_off_write_nothing_into_the_plan_and_on_are_part_of_the_cells_lineage() -> None:
    off = Plan.model_validate(_plan_data())
    assert "snapshots" not in off.model_dump()  # existing params hashes do not move
    on = Plan.model_validate({**_plan_data(), "snapshots": {"fractions": [0.5]}})
    assert on.model_dump()["snapshots"] == {"every_secs": 0, "fractions": [0.5]}
    cell = Cell.planned(CID, "dummy", 0, ROOT, PHASED, HW)
    assert "snapshots" not in cell.config("local")
    marked = Cell.planned(CID, "dummy", 0, ROOT, PHASED, HW, snapshots=on.snapshots)
    assert marked.config("local")["snapshots"] == {"every_secs": 0, "fractions": [0.5]}


def test_a_snapshot_is_published_whole_or_not_at_all(tmp_path: Path) -> None:
    def good(dest: Path, notes: list[str]) -> str:
        dest.write_text("id,y\n1,0\n")
        return "copied"

    def killed(dest: Path, notes: list[str]) -> str:
        dest.write_text("id,y\n1,")  # half a copy, then the process is interrupted
        raise KeyboardInterrupt

    first = take(tmp_path, 10, time.monotonic(), good)
    with pytest.raises(KeyboardInterrupt):
        take(tmp_path, 20, time.monotonic(), killed)
    assert [p.name for p in snapshot_dirs(tmp_path)] == ["10"]
    assert read_snapshot(tmp_path / "snapshots" / "10") == first
    assert first.submission_sha256 == sha256_file(tmp_path / "snapshots" / "10" / "submission.csv")
    assert not (tmp_path / "snapshots" / "20").exists()


def test_marks_the_agent_does_not_live_to_see_are_not_taken(tmp_path: Path) -> None:
    calls: list[float] = []

    def copy(dest: Path, notes: list[str]) -> str:
        calls.append(time.monotonic())
        return "missing"

    settings = SnapshotSettings(every_secs=1)
    with snapshotting(tmp_path, settings, 100, time.monotonic(), copy):
        time.sleep(2.5)
    time.sleep(1.5)
    assert len(calls) == 2 and [p.name for p in snapshot_dirs(tmp_path)] == ["1", "2"]
    assert read_snapshot(tmp_path / "snapshots" / "1").submission == "missing"


def test_local_runner_snapshots_a_then_b_each_graded_and_tabled(prepare_once, tmp_path: Path) -> None:
    prepared = prepare_once(CID)
    a, b = _sample(prepared.public), _answers(prepared.private)
    phases = [{"sleep": 2.5}, {"csv": a, "sleep": 3}, {"csv": b, "sleep": 3}]
    cell = _cell(prepared, tmp_path, phases, SnapshotSettings(every_secs=2))
    run = run_cell(cell, "local", DockerSettings())
    assert run.status == "ok" and run.submission_exists
    taken = [read_snapshot(p) for p in snapshot_dirs(cell.run_dir)]
    assert [s.mark_secs for s in taken][:4] == [2, 4, 6, 8]
    assert taken[0].submission == "missing"
    assert taken[1].submission_sha256 == _sha(a) and taken[-1].submission_sha256 == _sha(b)
    graded = grade_cell(cell, mode="v1").to_json()
    snaps = graded["snapshots"]
    assert [s["mark_secs"] for s in snaps] == [s.mark_secs for s in taken]
    assert snaps[0]["status"] == "no_submission" and not snaps[0]["any_medal"]
    assert snaps[0]["reason"] == "the agent had written no submission.csv by 2 s"
    assert snaps[1]["status"] == "ok" and not snaps[1]["any_medal"]  # the sample: a valid non-medal
    assert snaps[-1]["status"] == "ok" and snaps[-1]["gold_medal"] and snaps[-1]["score"] == 1.0
    assert snaps[-1]["grading_mode"] == graded["grading_mode"] == "v1"
    assert graded["any_medal"] and graded["lineage"]["submission_sha256"] == _sha(b)
    report = aggregate(ReportData([graded], ["phased"], [CID], [0], "embedded", {CID: "embedded"}))
    table = report["anytime_as_scored"]
    assert table["marks"] == [s.mark_secs for s in taken]
    rows = table["agents"]["phased"]["embedded"]
    assert [r["any_medal"]["mean"] for r in rows][:2] == [0.0, 0.0] and rows[-1]["any_medal"]["mean"] == 100.0
    assert rows[-1]["mark_secs"] is None
    assert report["anytime_table"] == {}  # the local runner's cell never counts in a headline
    html = to_html(report)
    assert html.count('<table class="anytime">') == 1  # as scored only: the local run is not isolated
    assert 'id="anytime-phased"' in html and "<th>2 s</th>" in html
    text = "\n".join(markdown_lines(report))
    assert "| phased | embedded | 0.0 ± n/a | 0.0 ± n/a |" in text and "100.0 ± n/a |" in text


def test_local_runner_refuses_a_symlink_or_oversized_submission_at_a_mark(
    prepare_once, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    prepared = prepare_once(CID)
    a = _sample(prepared.public)
    monkeypatch.setattr(host_process, "MAX_COPY_BYTES", len(a) + 10)
    target = prepared.private / "answers.csv"
    phases = [
        {"symlink": str(target), "sleep": 2},
        {"bytes": len(a) + 11, "sleep": 2},
        {"csv": a, "sleep": 1.5},
    ]
    cell = _cell(prepared, tmp_path, phases, SnapshotSettings(every_secs=1))
    run = run_cell(cell, "local", DockerSettings())
    assert run.submission_exists and run.extraction_notes == []
    taken = {s.mark_secs: s for s in map(read_snapshot, snapshot_dirs(cell.run_dir))}
    assert taken[1].submission == "refused" and "symlink" in taken[1].notes[0]
    assert taken[3].submission == "refused" and "larger than" in taken[3].notes[0]
    for mark in (1, 3):
        assert not (cell.run_dir / "snapshots" / str(mark) / "submission.csv").exists()
    graded = grade_cell(cell, mode="v1").to_json()
    by_mark = {s["mark_secs"]: s for s in graded["snapshots"]}
    assert by_mark[1]["status"] == "invalid_submission" and "symlink" in by_mark[1]["reason"]
    assert by_mark[1]["submission_exists"] and not by_mark[1]["valid_submission"]
    assert by_mark[3]["status"] == "invalid_submission" and "larger than" in by_mark[3]["reason"]


def test_a_kill_mid_run_keeps_the_snapshots_already_taken(prepare_once, tmp_path: Path) -> None:
    prepared = prepare_once(CID)
    a = _sample(prepared.public)
    pid_file = tmp_path / "agent.pid"
    cell = _cell(prepared, tmp_path, [{"csv": a, "sleep": 60}], SnapshotSettings(every_secs=1), pid_file)
    script = (
        "import pickle, sys\n"
        "from mlebench.execution.runners import run_cell\n"
        "from mlebench_spec.params import DockerSettings\n"
        "run_cell(pickle.loads(sys.stdin.buffer.read()), 'local', DockerSettings())\n"
    )
    import pickle

    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen([sys.executable, "-c", script], stdin=subprocess.PIPE, env=env, cwd=ROOT)
    assert proc.stdin is not None
    proc.stdin.write(pickle.dumps(cell))
    proc.stdin.close()
    try:
        deadline = time.monotonic() + 60
        while len(snapshot_dirs(cell.run_dir)) < 3 and time.monotonic() < deadline:
            time.sleep(0.1)
    finally:
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=10)
        if pid_file.is_file():
            os.killpg(int(pid_file.read_text()), signal.SIGKILL)
    assert not (cell.run_dir / "run.json").exists()  # the run never finished
    taken = snapshot_dirs(cell.run_dir)
    assert len(taken) >= 3
    for folder in taken:
        record = json.loads((folder / SNAPSHOT_JSON).read_text())
        if record["submission"] == "copied":
            assert sha256_file(folder / "submission.csv") == record["submission_sha256"]
    assert read_snapshot(taken[-1]).submission_sha256 == _sha(a)
    assert all(p.name.isdigit() or p.name.startswith(".") for p in (cell.run_dir / "snapshots").iterdir())


def test_state_at_a_mark_counts_the_final_grade_once_the_agent_has_finished() -> None:
    flags = (
        "gold_medal",
        "silver_medal",
        "bronze_medal",
        "above_median",
        "valid_submission",
        "submission_exists",
    )
    medal = {"any_medal": True, **dict.fromkeys(flags, True)}
    final = {"agent": "x", "competition_id": "c", "seed": 0, **medal, "isolation": "isolated"}
    early = {**final, "timings": {"agent_seconds": 20.0}}
    late = {**final, "timings": {"agent_seconds": 500.0}, "snapshots": [{"mark_secs": 100, **medal}]}
    plain = {**final, "timings": {"agent_seconds": 500.0}}
    assert state_at(early, 50)["any_medal"] and state_at(late, 100)["any_medal"]
    assert not state_at(late, 50)["any_medal"] and not state_at(plain, 100)["any_medal"]
    assert state_at(plain, 100)["status"] == "no_submission"
    by_cell = {("x", "c", 0): late, ("x", "d", 0): {**plain, "competition_id": "d"}}
    table = anytime_table(by_cell, {}, ["x"], {"all": ["c", "d"]}, [0])
    assert table["marks"] == [100]
    assert [r["any_medal"]["mean"] for r in table["agents"]["x"]["all"]] == [50.0, 100.0]
    flagged = anytime_table(by_cell, {("x", "c", 0): {"verdict": "flagged"}}, ["x"], {"all": ["c", "d"]}, [0])
    assert [r["any_medal"]["mean"] for r in flagged["agents"]["x"]["all"]] == [0.0, 50.0]
    assert anytime_table({("x", "c", 0): plain}, {}, ["x"], {"all": ["c"]}, [0]) == {}


def _cell(prepared, tmp_path: Path, phases: list, snapshots: SnapshotSettings, pid_file: Path | None = None):
    kwargs = {"phases": phases, **({"pid_file": str(pid_file)} if pid_file else {})}
    agent = PHASED.model_copy(update={"kwargs": kwargs})
    return Cell(
        CID,
        "phased",
        0,
        ROOT,
        prepared.public,
        prepared.private,
        tmp_path / "run",
        agent,
        HW,
        snapshots=snapshots,
    )


def _sample(public: Path) -> str:
    return (public / "sample_submission.csv").read_text(encoding="utf-8")


def _answers(private: Path) -> str:
    return (private / "answers.csv").read_text(encoding="utf-8")


def _sha(text: str) -> str:
    import hashlib

    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def _plan_data() -> dict:
    from mlebench_spec.yamlio import load_yaml

    return load_yaml(ROOT / "params.yaml")
