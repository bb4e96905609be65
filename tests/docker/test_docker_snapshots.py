"""Any-time snapshots under the Docker runner: copied out of the running container, graded in the grader.

The phased agent (tests/docker/phased_agent) writes submission A, sleeps past a mark, writes B: the
snapshots must hold A then B, each graded by the grader container as the final submission is, and the
report's any-time table must show both. A symlink or an oversized file at a mark is refused as the final
copy refuses it.
"""

# ruff: noqa: F811 - fixtures are imported from container_fixtures and then named as test parameters
from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from container_fixtures import ROOT, docker_client, env_ref, runner, settings, titanic  # noqa: F401 - fixtures

from mlebench.execution.docker import extract
from mlebench.execution.grading import grade_cell
from mlebench.execution.runners import run_cell
from mlebench.execution.snapshots import read_snapshot, snapshot_dirs
from mlebench.reporting.anytime import markdown_lines
from mlebench.reporting.report import ReportData, aggregate
from mlebench_spec.cell import Cell
from mlebench_spec.params import AgentConfig, Hardware, SnapshotSettings

pytestmark = pytest.mark.docker

HW = Hardware(name="test", cpus=1, memory="512m", shm_size="64m", pids=64, gpus=0, time_limit_secs=60)


def _cell(titanic: Any, tmp_path: Path, phases: list, snapshots: SnapshotSettings) -> Cell:
    agent = AgentConfig(
        path="tests/docker/phased_agent", command=["python", "phased.py"], kwargs={"phases": phases}
    )
    return Cell(
        titanic.id,
        "phased",
        0,
        ROOT,
        titanic.public,
        titanic.private,
        tmp_path / "run",
        agent,
        HW,
        snapshots=snapshots,
    )


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def test_snapshots_hold_a_then_b_each_graded_and_the_table_shows_both(
    env_ref, settings, titanic, tmp_path: Path
) -> None:
    a = (titanic.public / "sample_submission.csv").read_text(encoding="utf-8")
    b = (titanic.private / "answers.csv").read_text(encoding="utf-8")
    phases = [{"csv": a, "sleep": 10}, {"csv": b, "sleep": 10}]
    cell = _cell(titanic, tmp_path, phases, SnapshotSettings(fractions=[0.1, 0.3]))  # marks 6 s and 18 s
    run = run_cell(cell, "docker", settings)
    assert run.status == "ok" and run.submission_exists, run
    taken = [read_snapshot(p) for p in snapshot_dirs(cell.run_dir)]
    assert [s.mark_secs for s in taken] == [6, 18]
    assert [s.submission_sha256 for s in taken] == [_sha(a), _sha(b)]
    assert all(6 <= s.elapsed_secs < 7 or 18 <= s.elapsed_secs < 19 for s in taken)
    graded = grade_cell(cell, mode="v1").to_json()
    assert graded["lineage"]["grader_runner"] == "docker" and graded["isolation"] == "isolated"
    first, second = graded["snapshots"]
    assert first["mark_secs"] == 6 and first["status"] == "ok" and not first["any_medal"]
    assert second["mark_secs"] == 18 and second["gold_medal"] and second["score"] == 1.0
    assert first["grading_mode"] == second["grading_mode"] == graded["grading_mode"] == "v1"
    assert first["submission_path"].endswith("snapshots/6/submission.csv")
    report = aggregate(
        ReportData([graded], ["phased"], [titanic.id], [0], "embedded", {titanic.id: "embedded"})
    )
    rows = report["anytime_table"]["agents"]["phased"]["embedded"]
    assert [(r["mark_secs"], r["any_medal"]["mean"]) for r in rows] == [(6, 0.0), (18, 100.0), (None, 100.0)]
    assert "| phased | embedded | 0.0 ± n/a | 100.0 ± n/a | 100.0 ± n/a |" in "\n".join(
        markdown_lines(report)
    )


def test_a_symlink_or_oversized_submission_at_a_mark_is_refused_like_the_final_copy(
    env_ref, settings, titanic, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    a = (titanic.public / "sample_submission.csv").read_text(encoding="utf-8")
    monkeypatch.setattr(extract, "MAX_FILE_BYTES", len(a.encode()) + 10)
    phases = [
        {"symlink": "/home/data/sample_submission.csv", "sleep": 8},
        {"bytes": len(a.encode()) + 11, "sleep": 8},
        {"csv": a, "sleep": 4},
    ]
    cell = _cell(titanic, tmp_path, phases, SnapshotSettings(every_secs=6))  # marks 6, 12, 18, ...
    run = run_cell(cell, "docker", settings)
    assert run.status == "ok" and run.submission_exists
    taken = {s.mark_secs: s for s in map(read_snapshot, snapshot_dirs(cell.run_dir))}
    assert taken[6].submission == "refused" and "symlink" in taken[6].notes[0]
    assert taken[12].submission == "refused" and "larger than" in taken[12].notes[0]
    assert taken[18].submission == "copied" and taken[18].submission_sha256 == _sha(a)
    for mark in (6, 12):
        assert not (cell.run_dir / "snapshots" / str(mark) / "submission.csv").exists()
    graded = grade_cell(cell, mode="v1").to_json()
    by_mark = {s["mark_secs"]: s for s in graded["snapshots"]}
    assert by_mark[6]["status"] == "invalid_submission" and "symlink" in by_mark[6]["reason"]
    assert by_mark[12]["status"] == "invalid_submission" and "larger than" in by_mark[12]["reason"]
    assert by_mark[18]["status"] == "ok"
