"""What gates a medal: isolation, integrity verdicts and disclosures, from the records to the report."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mlebench.execution.docker.agent import ContainerRunRecord
from mlebench.execution.grading import grade_cell
from mlebench.execution.runners import run_cell
from mlebench.planning.plan import _root_pipeline, integrity_deps
from mlebench.reporting.html import to_html
from mlebench.reporting.markdown import to_markdown
from mlebench.reporting.records import RunRecord
from mlebench.reporting.report import ReportData, ReportInputs, aggregate, headline, write_report
from mlebench.reporting.verdicts import load_verdict
from mlebench_spec.cell import Cell
from mlebench_spec.errors import ConfigError, DataError
from mlebench_spec.files import write_json
from mlebench_spec.params import AgentConfig, DockerSettings, Hardware, validate_plan
from mlebench_spec.paths import audit_path, grade_path

ROOT = Path(__file__).resolve().parents[1]
CID = "titanic-lite"
HW = Hardware(name="cpu", cpus=1, memory="1g", shm_size="64m", pids=64, gpus=0, time_limit_secs=120)
DISCLOSED = {"models": ["m-1"], "uses_test_feedback": False, "web_search": True}
BARE = {"path": "agents/dummy", "command": ["python", "main.py"]}
LOCAL = "the local runner ran the agent without a container: it could read the answers"


def _rec(cid: str, seed: int, medal: bool, isolation: str = "isolated") -> dict:
    return {
        "agent": "x",
        "competition_id": cid,
        "seed": seed,
        "status": "ok",
        "score": 0.5,
        "any_medal": medal,
        "gold_medal": medal,
        "silver_medal": False,
        "bronze_medal": False,
        "above_median": medal,
        "valid_submission": True,
        "submission_exists": True,
        "gold_threshold": 1.0,
        "silver_threshold": 0.9,
        "bronze_threshold": 0.8,
        "median_threshold": 0.5,
        "reason": "",
        "runner": "docker" if isolation == "isolated" else "local",
        "isolation": isolation,
        "isolation_reason": "" if isolation == "isolated" else LOCAL,
        "disclosures": DISCLOSED,
    }


RECORDS = [
    _rec("a", 0, True),  # flagged below: keeps its score, no medal in the headline
    _rec("a", 1, True),
    _rec("b", 0, False),
    _rec("b", 1, True, "unisolated"),  # never in the headline
]
FLAGGED = {
    "verdict": "flagged",
    "flags": [{"check": "submission_from_own_code", "evidence": ["logs/agent.log:12 copies answers"]}],
    "checked_at": "2026-01-01T00:00:00+00:00",
}
COMPLEXITY = {"a": "low", "b": "low"}


def _report(count_flagged: bool = False) -> dict:
    verdicts = {("x", "a", 0): FLAGGED, ("x", "a", 1): {"verdict": "clean", "flags": [], "checked_at": None}}
    return aggregate(
        ReportData(
            RECORDS,
            ["x"],
            ["a", "b"],
            [0, 1],
            "set",
            COMPLEXITY,
            verdicts=verdicts,
            count_flagged=count_flagged,
        )
    )


def test_the_report_shows_the_headline_and_as_scored_with_a_flagged_and_an_unisolated_cell() -> None:
    report = _report()
    entry = report["agents"]["x"]
    # headline: b/1 left out (b has one entry, so one seed), a/0 flagged counts as no medal -> 0 %
    assert entry["groups"]["set"]["seeds"] == 1
    assert entry["groups"]["set"]["metrics"]["any_medal"]["per_seed"] == [0.0]
    # as scored: every cell as graded -> seeds [50 %, 100 %]
    assert entry["as_scored"]["set"]["metrics"]["any_medal"]["per_seed"] == [50.0, 100.0]
    assert headline(report)["x"]["set"] == {
        "network": "unrecorded",  # issue 39: the policy beside the figure (these records do not say one)
        "any_medal_pct": 0.0,
        "any_medal_pct_sem": None,
        "any_medal_pct_as_scored": 75.0,
        "seeds": 1,
        "complete_seeds": [0],
    }
    assert report["integrity"] == [{"agent": "x", "competition_id": "a", "seed": 0, **FLAGGED["flags"][0]}]
    assert report["excluded"] == [{"agent": "x", "competition_id": "b", "seed": 1, "reason": LOCAL}]
    row = entry["per_competition"]["a"][0]
    assert row["verdict"] == "flagged" and row["score"] == 0.5 and row["medal"] == "gold"
    assert entry["per_competition"]["b"][1]["isolation"] == "unisolated"
    assert entry["verdict_counts"] == {"flagged": 1, "clean": 1, "unchecked": 2}
    assert entry["disclosures"] == [DISCLOSED]
    text = to_markdown(report)
    assert "| x | set | 0.0 ± n/a | 75.0 ± 25.0 |" in text
    assert "| x/a/seed 0 | submission_from_own_code | logs/agent.log:12 copies answers |" in text
    assert f"- x/b/seed 1: {LOCAL}" in text
    assert "| x | m-1 | False | True |" in text
    html = to_html(report)
    assert 'id="integrity-flags"' in html and "logs/agent.log:12 copies answers" in html
    assert f"x/b/seed 1: {LOCAL}" in html and 'id="as-scored"' in html and "75.0 ± 25.0" in html
    assert "<td>m-1</td><td>False</td><td>True</td>" in html


def test_count_flagged_counts_a_flagged_cell_as_scored_in_the_headline() -> None:
    report = _report(count_flagged=True)
    assert report["agents"]["x"]["groups"]["set"]["metrics"]["any_medal"]["per_seed"] == [50.0]
    assert "flagged cells count as scored" in report["headline_rule"]


def test_verdicts_are_read_from_integrity_files(tmp_path: Path) -> None:
    assert load_verdict(tmp_path / "none.json")["verdict"] == "unchecked"
    path = tmp_path / "v.json"
    write_json(
        path,
        {
            "verdict": "flagged",
            "checks": [
                {"check": "network", "flagged": False, "evidence": [], "details": {}},
                {"check": "own_code", "flagged": True, "evidence": ["no code wrote it"], "details": {}},
            ],
            "plagiarism": {"flagged": True, "evidence": ["92% like kernel k"]},
            "judge": None,
            "checked_at": "t",
            "settings_sha256": "s",
        },
    )
    assert load_verdict(path)["flags"] == [
        {"check": "own_code", "evidence": ["no code wrote it"]},
        {"check": "plagiarism", "evidence": ["92% like kernel k"]},
    ]
    path.write_text('{"verdict": "maybe", "checks": []}')
    with pytest.raises(DataError, match=f"{path}: verdict 'maybe'"):
        load_verdict(path)
    path.write_text("{not json")
    with pytest.raises(DataError, match=f"{path}: not an integrity verdict"):
        load_verdict(path)


def _plan(agent: dict) -> object:
    return validate_plan(
        {
            "agent": {"x": agent},
            "competition_set": {"name": "custom", "ids": [CID]},
            "hardware": HW.model_dump(),
            "seeds": [0, 1],
            "runner": "local",
        },
        "test plan",
    )


def test_the_report_depends_on_integrity_files_only_when_a_stage_writes_them() -> None:
    plan = _plan({**BARE, "disclosures": DISCLOSED})
    assert integrity_deps(plan, {"grades/x/titanic-lite/0.json"}) == []
    bare = _root_pipeline(plan, ROOT, [])["stages"]["report"]
    assert bare["meta"]["report"]["integrity"] is False and not any(
        d.startswith("integrity/") for d in bare["deps"]
    )
    deps = integrity_deps(
        plan, {"integrity/x/titanic-lite/0/integrity.json", "integrity/x/titanic-lite/1/integrity.json"}
    )
    assert deps == ["integrity/x/titanic-lite/0/integrity.json", "integrity/x/titanic-lite/1/integrity.json"]
    checked = _root_pipeline(plan, ROOT, deps)["stages"]["report"]
    assert checked["meta"]["report"]["integrity"] is True and set(deps) <= set(checked["deps"])
    assert bare["cmd"] == checked["cmd"] == "python -m stages.report"  # the inputs are typed, in meta
    assert Cell.planned(CID, "x", 0, Path()).integrity_path == Path(deps[0])


def test_every_planned_agent_must_declare_its_disclosures() -> None:
    with pytest.raises(ConfigError, match=r"agent\(s\) x declare no disclosures: add to conf/agent/"):
        _plan(BARE)
    with pytest.raises(ConfigError, match="agent.x.disclosures.uses_test_feedback: Field required"):
        _plan({**BARE, "disclosures": {"models": [], "web_search": False}})
    with pytest.raises(
        ConfigError, match="test_feedback: Extra inputs"
    ):  # the old name: refused, not ignored
        _plan({**BARE, "disclosures": {**DISCLOSED, "test_feedback": False}})


def test_disclosures_and_isolation_are_recorded_with_every_score(prepare_once, tmp_path: Path) -> None:
    prepared = prepare_once(CID)
    agent = AgentConfig(path="agents/dummy", command=["python", "main.py"], disclosures=DISCLOSED)
    cell = Cell(CID, "dummy", 0, ROOT, prepared.public, prepared.private, tmp_path / "local", agent, HW)
    run = run_cell(cell, "local", DockerSettings())
    assert run.status == "ok"
    assert json.loads((cell.run_dir / "run.json").read_text())["disclosures"] == DISCLOSED
    graded = grade_cell(cell).to_json()
    assert graded["isolation"] == "unisolated" and "without a container" in graded["isolation_reason"]
    assert graded["disclosures"] == DISCLOSED and graded["score"] is not None  # graded for a quick look
    isolated = Cell(CID, "dummy", 0, ROOT, prepared.public, prepared.private, tmp_path / "docker", agent, HW)
    isolated.run_dir.mkdir()
    shutil.copyfile(cell.run_dir / "submission.csv", isolated.run_dir / "submission.csv")
    fields = {k: v for k, v in RunRecord.to_json(run).items() if k != "runner"}
    ContainerRunRecord(**fields, runner="docker").write(isolated.run_dir)
    graded = grade_cell(isolated, grader="host").to_json()
    assert graded["isolation"] == "isolated" and graded["isolation_reason"] == ""
    assert graded["disclosures"] == DISCLOSED


def test_write_report_reads_each_cells_integrity_file_only_when_told(tmp_path: Path) -> None:
    root = tmp_path / "checkout"
    root.mkdir()
    (root / "competitions").symlink_to(ROOT / "competitions")
    write_json(audit_path(CID, root), {"known_leaks": [], "findings": []})
    for seed in (0, 1):
        write_json(grade_path("x", CID, seed, root), {**_rec(CID, seed, True), "seed": seed})
    verdict = Cell.planned(CID, "x", 0, root).integrity_path
    write_json(
        verdict,
        {
            "verdict": "flagged",
            "checks": [{"check": "own_code", "flagged": True, "evidence": ["e1"], "details": {}}],
            "plagiarism": None,
            "judge": None,
            "checked_at": "t",
            "settings_sha256": "s",
        },
    )
    unchecked = write_report(ReportInputs(("x",), "custom", (CID,), (0, 1)), root)
    assert unchecked["integrity"] == [] and unchecked["agents"]["x"]["verdict_counts"] == {"unchecked": 2}
    checked = write_report(ReportInputs(("x",), "custom", (CID,), (0, 1), integrity=True), root)
    assert checked["integrity"] == [
        {"agent": "x", "competition_id": CID, "seed": 0, "check": "own_code", "evidence": ["e1"]}
    ]
    assert checked["agents"]["x"]["groups"]["embedded"]["metrics"]["any_medal"]["per_seed"] == [0.0, 100.0]
    assert "| x/titanic-lite/seed 0 | own_code | e1 |" in (root / "report" / "report.md").read_text()
    on_disk = json.loads((root / "report" / "metrics.json").read_text())["x"]["embedded"]
    assert on_disk["any_medal_pct"] == 50.0 and on_disk["any_medal_pct_as_scored"] == 100.0
