"""Process evaluation (issue 42): the reproduction verdict, its record, the plan, the report, and the flow.

The flow runs the reproduce test agent (tests/docker/repro_agent) under the runners that need no engine
(local, and sandbox where bubblewrap works): one whose code reproduces its submission, one whose submission
was typed in (its code writes something else) and one that declares nothing.
tests/docker/test_docker_reproduce.py runs the same three under Docker.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mlebench.execution.code_quality import code_quality
from mlebench.execution.grading import grade_cell
from mlebench.execution.reproduce import DEFAULT, declared_command, reproduce_cell, sampled
from mlebench.execution.runners import run_cell
from mlebench.integrity.verdict import reproduction_check
from mlebench.planning.plan import compose, render, reproduced_cells, resolve
from mlebench.reporting.markdown import to_markdown
from mlebench.reporting.report import ReportData, aggregate, headline
from mlebench.reporting.reproduction import (
    ReproductionRecord,
    judge,
    load_reproduction,
    process_section,
)
from mlebench_spec.cell import Cell
from mlebench_spec.errors import DataError
from mlebench_spec.params import AgentConfig, DockerSettings, Hardware, ReproduceSettings, Tolerance

ROOT = Path(__file__).resolve().parents[1]
CID = "titanic-lite"
HW = Hardware(name="cpu", cpus=1, memory="1g", shm_size="64m", pids=64, gpus=0, time_limit_secs=120)
AGENT_PATH = "tests/docker/repro_agent"


@pytest.mark.parametrize(
    ("original", "again", "lower", "worse", "better", "verdict"),
    [
        (0.80, 0.80, False, 0.0, 0.0, "reproduced"),  # exactly: no tolerance needed
        (0.80, 0.7921, False, 0.01, 0.0, "reproduced"),  # 0.99% worse, within 1%
        (0.80, 0.7900, False, 0.01, 0.0, "differs"),  # 1.25% worse
        (0.80, 0.81, False, 0.01, 0.0, "differs"),  # better, but `better` allows nothing
        (0.80, 0.81, False, 0.0, 0.02, "reproduced"),
        (2.0, 2.01, True, 0.01, 0.0, "reproduced"),  # lower is better: higher is worse, by 0.5%
        (2.0, 1.9, True, 0.01, 0.0, "differs"),  # lower is better: 5% better, `better` is 0
        (2.0, 2.1, True, 0.01, 0.5, "differs"),  # 5% worse; a generous `better` does not help
        (0.0, 0.0, False, 0.01, 0.01, "reproduced"),  # a zero original: the floor, not a division
        (0.0, 0.001, True, 0.01, 0.01, "differs"),
    ],
)
def test_the_tolerance_is_relative_and_follows_the_metric_direction(
    original: float, again: float, lower: bool, worse: float, better: float, verdict: str
) -> None:
    got, delta = judge(True, "ok", original, again, lower, worse, better)
    assert got == verdict
    assert delta == pytest.approx(again - original)


def test_failed_and_undeclared_reproductions_have_no_delta() -> None:
    assert judge(True, "no_submission", 0.8, None, False, 0.01, 0.01) == ("failed", None)
    assert judge(False, "", 0.8, 0.8, False, 0.01, 0.01) == ("not_declared", None)
    assert judge(True, "ok", None, 0.5, False, 0.01, 0.01) == ("differs", None)  # the original had none


def _agent(**extra: object) -> AgentConfig:
    return AgentConfig(path=AGENT_PATH, command=["python", "agent.py"], **extra)


def test_the_declaration_is_the_config_then_reproduce_sh_then_the_one_script(tmp_path: Path) -> None:
    code = tmp_path / "code"
    assert declared_command(code, _agent()) == ([], "")  # no code at all
    code.mkdir()
    (code / "a.py").write_text("", encoding="utf-8")
    assert declared_command(code, _agent()) == (["python", "a.py"], DEFAULT)
    (code / "b.py").write_text("", encoding="utf-8")
    assert declared_command(code, _agent()) == ([], "")  # two scripts: which one?
    (code / "reproduce.sh").write_text("python a.py\n", encoding="utf-8")
    assert declared_command(code, _agent()) == (["sh", "reproduce.sh"], "code/reproduce.sh")
    assert declared_command(code, _agent(reproduce=["python", "b.py"])) == (
        ["python", "b.py"],
        "agent config",
    )


def test_an_agent_without_a_declaration_serialises_as_before() -> None:
    assert "reproduce" not in _agent().model_dump()
    assert _agent(reproduce=["sh", "run.sh"]).model_dump()["reproduce"] == ["sh", "run.sh"]


def test_sampling_is_stable_and_nested() -> None:
    keys = [("a", f"c{i}", s) for i in range(50) for s in range(3)]
    quarter = {k for k in keys if sampled(*k, 0.25)}
    half = {k for k in keys if sampled(*k, 0.5)}
    assert quarter <= half and 15 < len(quarter) < 60 and len(half) > len(quarter)
    assert all(sampled(*k, 1.0) for k in keys)


def _record(verdict: str, delta: float | None = 0.0, **extra: object) -> ReproductionRecord:
    data = dict(
        competition_id=CID,
        agent="x",
        seed=0,
        verdict=verdict,
        status="ok" if verdict in ("reproduced", "differs") else "",
        score=0.8 if delta is not None else None,
        original_score=0.8 - (delta or 0.0),
        delta=delta,
        seconds=3.0,
        run_seconds=10.0,
        time_limit_secs=60,
        command=["python", "main.py"],
        declared_by="agent config",
        tolerance=Tolerance().model_dump(),
        is_lower_better=False,
        reason="",
        runner="docker",
        created_at="2026-12-05T20:00:00Z",
        code_quality={
            "files": 3,
            "lines": 100,
            "python_lines": 100,
            "readme": True,
            "says_how_to_run": True,
            "ruff": {"version": "0.8.0", "findings": 2},
        },
    )
    data.update(extra)
    return ReproductionRecord(**data)  # type: ignore[arg-type]


def test_the_record_round_trips_and_garbage_is_a_data_error(tmp_path: Path) -> None:
    record = _record("reproduced")
    record.write(tmp_path)
    assert load_reproduction(tmp_path) == record
    assert load_reproduction(tmp_path / "nowhere") is None
    (tmp_path / "reproduction.json").write_text('{"verdict": "maybe"}', encoding="utf-8")
    with pytest.raises(DataError, match="not a reproduction record"):
        load_reproduction(tmp_path)
    with pytest.raises(ValueError, match="not one of"):
        _record("probably")


def test_the_process_section_counts_shares_deltas_cost_and_code() -> None:
    records = {
        ("x", "c1", 0): _record("reproduced", 0.0).to_json(),
        ("x", "c1", 1): _record("reproduced", -0.002).to_json(),
        ("x", "c2", 0): _record("differs", -0.3).to_json(),
        ("x", "c2", 1): _record("not_declared", None).to_json(),
    }
    section = process_section(records, ["x", "absent"])
    x = section["agents"]["x"]
    assert list(section["agents"]) == ["x"]
    assert x["verdicts"] == {"reproduced": 2, "differs": 1, "failed": 0, "not_declared": 1}
    assert x["share_reproduced"] == pytest.approx(66.7)  # of the three that declared a way to re-run
    assert x["deltas"] == [0.0, -0.002, -0.3] and x["delta_abs_max"] == 0.3
    assert x["seconds"] == 12.0 and x["run_seconds"] == 40.0
    assert x["code_quality"]["ruff_findings_per_kloc"] == 20.0  # 8 findings over 400 Python lines
    assert x["code_quality"]["ruff_versions"] == ["0.8.0"] and x["code_quality"]["says_how_to_run"] == 4


def _graded(agent: str, cid: str, seed: int, medal: bool) -> dict:
    return {
        "agent": agent,
        "competition_id": cid,
        "seed": seed,
        "status": "ok",
        "score": 0.9 if medal else 0.1,
        "any_medal": medal,
        "gold_medal": medal,
        "silver_medal": False,
        "bronze_medal": False,
        "above_median": medal,
        "valid_submission": True,
        "submission_exists": True,
        "gold_threshold": 0.8,
        "silver_threshold": 0.7,
        "bronze_threshold": 0.6,
        "median_threshold": 0.5,
        "is_lower_better": False,
        "isolation": "isolated",
        "runner": "docker",
        "hardware": {"name": "cpu"},
        "lineage": {},
        "timings": {},
    }


def test_the_headline_may_count_only_reproduced_cells() -> None:
    records = [_graded("x", "c1", 0, True), _graded("x", "c2", 0, True)]
    again = {
        ("x", "c1", 0): _record("reproduced").to_json(),
        ("x", "c2", 0): _record("differs", -0.5).to_json(),
    }
    args = (records, ["x"], ["c1", "c2"], [0], "embedded", {"c1": "embedded", "c2": "embedded"})
    reported = aggregate(ReportData(*args, reproductions=again))
    counted = aggregate(ReportData(*args, reproductions=again, reproduced_only=True))
    assert headline(reported)["x"]["embedded"]["any_medal_pct"] == 100.0
    assert headline(counted)["x"]["embedded"]["any_medal_pct"] == 50.0
    assert headline(counted)["x"]["embedded"]["any_medal_pct_as_scored"] == 100.0
    assert counted["process"]["headline"] == "reproduced" and "reproduced it" in counted["headline_rule"]
    row = counted["agents"]["x"]["per_competition"]["c2"][0]
    assert row["reproduction"]["verdict"] == "differs" and row["reproduction"]["delta"] == -0.5
    text = to_markdown(counted)
    assert "## Process: reproduction and code" in text and "| x/c2/seed 0 | differs | ok |" in text
    assert "process" not in aggregate(ReportData(*args))  # a plan without reproduce stages: no section at all


def test_ruff_findings_are_counted_per_thousand_lines_with_its_version(tmp_path: Path) -> None:
    (tmp_path / "solve.py").write_text("import os\nimport sys\n\nprint(undefined_name)\n", encoding="utf-8")
    (tmp_path / "README.md").write_text("python solve.py\n", encoding="utf-8")
    found = code_quality(tmp_path, "")
    assert found["files"] == 2 and found["python_files"] == 1 and found["python_lines"] == 4
    assert found["readme"] and found["says_how_to_run"]
    ruff = found["ruff"]
    assert ruff["version"] and ruff["findings"] == 3  # two unused imports, one undefined name
    assert ruff["rules"] == {"F401": 2, "F821": 1} and ruff["per_kloc"] == 750.0
    assert code_quality(tmp_path / "none", "")["files"] == 0


def test_the_integrity_check_flags_what_reproduce_flag_names() -> None:
    assert reproduction_check(_record("differs", -0.3)).flagged
    assert "scored 0.8" in reproduction_check(_record("differs", -0.3)).evidence[0]
    for verdict in ("reproduced", "failed", "not_declared"):  # by default only `differs`
        assert not reproduction_check(_record(verdict, None)).flagged
    strict = ("differs", "failed", "not_declared")
    failed = reproduction_check(_record("failed", None, status="agent_error", reason="exit 1"), strict)
    assert failed.flagged and "wrote no gradable submission (agent_error: exit 1)" in failed.evidence[0]
    assert reproduction_check(_record("not_declared", None), strict).flagged
    assert not reproduction_check(_record("reproduced"), strict).flagged
    assert not reproduction_check(_record("differs", -0.3), ()).flagged


def test_reproduction_off_changes_no_pipeline_and_on_plans_a_stage_per_sampled_cell() -> None:
    off = resolve(compose(["competition_set=dev", "seed=one"]))
    assert "reproduce" not in off.model_dump() and reproduced_cells(off) == []
    texts = render(off, ROOT)
    assert not any("stages.reproduce" in t for t in texts.values())
    assert (
        load_yaml_text(texts[ROOT / "dvc.yaml"])["stages"]["report"]["meta"]["report"]["reproduce"] is False
    )
    on = resolve(compose(["competition_set=dev", "seed=one", "reproduce.enabled=true"]))
    files = render(on, ROOT)
    cells = reproduced_cells(on)
    assert len(cells) == len(on.agent) * len(on.competition_set.ids)
    first = cells[0]
    pipeline = load_yaml_text(
        files[ROOT / "pipelines" / first.competition_id / f"{first.agent}-s0" / "dvc.yaml"]
    )
    stages = pipeline["stages"]
    assert list(stages) == [f"{k}-{first.agent}-s0" for k in ("run_agent", "grade", "reproduce", "integrity")]
    again = stages[f"reproduce-{first.agent}-s0"]
    assert again["outs"] == [f"reproductions/{first.agent}/{first.competition_id}/0"]
    assert again["cmd"].startswith("python -m stages.reproduce") and "reproduce" in again["params"]
    assert any(d in ("mlebench/execution", "mlebench/execution/reproduce.py") for d in again["deps"])
    assert f"grades/{first.agent}/{first.competition_id}/0.json" in again["deps"]
    integrity = stages[f"integrity-{first.agent}-s0"]
    assert integrity["cmd"].endswith("--reproduction") and again["outs"][0] in integrity["deps"]
    report = load_yaml_text(files[ROOT / "dvc.yaml"])["stages"]["report"]
    assert report["meta"]["report"]["reproduce"] is True and "reproduce" in report["params"]
    assert again["outs"][0] in report["deps"]
    half = resolve(
        compose(["competition_set=dev", "seed=three", "reproduce.enabled=true", "reproduce.fraction=0.5"])
    )
    assert 0 < len(reproduced_cells(half)) < len(on.agent) * len(half.competition_set.ids) * 3


def load_yaml_text(text: str) -> dict:
    from ruamel.yaml import YAML

    return YAML(typ="safe", pure=True).load(text)


def run_and_reproduce(prepared: object, tmp_path: Path, mode: str, runner: str) -> ReproductionRecord:
    """Run the test agent in ``mode``, grade it, reproduce it; every record in ``tmp_path / mode``."""
    agent = _agent(kwargs={"mode": mode})
    folder = tmp_path / mode
    cell = Cell(CID, f"repro-{mode}", 0, ROOT, prepared.public, prepared.private, folder / "run", agent, HW)  # type: ignore[attr-defined]
    run = run_cell(cell, runner, DockerSettings())
    assert run.status == "ok", (folder / "run" / "agent_output.log").read_text(encoding="utf-8")
    grade_cell(cell).write(folder / "grade.json")
    record = reproduce_cell(
        cell,
        ReproduceSettings(enabled=True),
        DockerSettings(),
        grade_path=folder / "grade.json",
        out=folder / "again",
    )
    record.write(folder / "again")
    return record


@pytest.mark.parametrize(
    ("mode", "verdict", "declared_by"),
    [
        ("honest", "reproduced", "code/reproduce.sh"),
        ("typed", "differs", DEFAULT),
        ("silent", "not_declared", ""),
    ],
)
@pytest.mark.parametrize("runner", ["local", "sandbox"])
def test_three_agents_reproduce_differ_and_declare_nothing_without_an_engine(
    prepare_once, tmp_path: Path, mode: str, verdict: str, declared_by: str, runner: str
) -> None:
    """The same three under the runners that need no engine: local, and sandbox where bubblewrap works."""
    if runner != "local":
        from mlebench.execution.runners import get_runner

        problem = get_runner(runner, DockerSettings()).problem()
        if problem:
            pytest.skip(f"the {runner} runner cannot run here: {problem}")
    record = run_and_reproduce(prepare_once(CID), tmp_path, mode, runner)
    assert (record.verdict, record.declared_by, record.runner) == (verdict, declared_by, runner)
    assert record.time_limit_secs == HW.time_limit_secs // 2 and record.run_seconds is not None
    original = json.loads((tmp_path / mode / "grade.json").read_text(encoding="utf-8"))
    assert record.original_score == original["score"] is not None
    assert record.lineage["original"]["submission_sha256"] == original["lineage"]["submission_sha256"]
    if verdict == "not_declared":
        assert (
            record.status == ""
            and record.seconds is None
            and not (tmp_path / mode / "again" / "run").exists()
        )
        return
    again = json.loads((tmp_path / mode / "again" / "grade.json").read_text(encoding="utf-8"))
    assert record.status == again["status"] == "ok" and record.score == again["score"]
    assert record.lineage["reproduction"]["submission_sha256"] == again["lineage"]["submission_sha256"]
    run = json.loads((tmp_path / mode / "again" / "run" / "run.json").read_text(encoding="utf-8"))
    assert run["time_limit_secs"] == 60 and run["status"] == "ok" and record.seconds == run["agent_seconds"]
    assert record.identical == (verdict == "reproduced")
    if verdict == "reproduced":
        assert record.delta == 0.0
        assert record.lineage["reproduction"]["submission_sha256"] == original["lineage"]["submission_sha256"]
        assert record.code_quality["readme"] and record.code_quality["says_how_to_run"]
    else:
        assert record.delta is not None and abs(record.delta) > 0.1  # most vs least frequent class
        assert reproduction_check(record).flagged


def test_the_integrity_stage_flags_the_typed_in_cell_and_passes_the_honest_one(
    prepare_once, tmp_path: Path
) -> None:
    """The integrity verdict, given the cell's reproduction, flags a submission its code does not write."""
    from mlebench.integrity.verdict import check_cell
    from mlebench_spec.params import IntegritySettings

    root = tmp_path / "checkout"
    root.mkdir()
    (root / "competitions").symlink_to(ROOT / "competitions")
    prepared = prepare_once(CID)
    for mode, verdict in (("typed", "flagged"), ("honest", "clean")):
        record = run_and_reproduce(prepared, tmp_path, mode, "local")
        cell = Cell(
            CID, mode, 0, root, prepared.public, prepared.private, tmp_path / mode / "run", _agent(), HW
        )
        written = check_cell(cell, _agent(), IntegritySettings(), reproduction=record)
        on_disk = json.loads(cell.integrity_path.read_text(encoding="utf-8"))
        assert written == on_disk and on_disk["verdict"] == verdict, on_disk
        (check,) = [c for c in on_disk["checks"] if c["check"] == "reproduction"]
        assert check["flagged"] == (mode == "typed") and check["details"]["verdict"] == record.verdict


def test_the_baseline_kept_code_reproduces_its_submission(prepare_once, tmp_path: Path) -> None:
    """The baseline copies its source to CODE_DIR; run there by its declaration, it writes the same file."""
    prepared = prepare_once(CID)
    agent = AgentConfig(
        path="agents/baseline",
        command=["python", "main.py"],
        kwargs={"max_train_rows": 2000},
        reproduce=["python", "main.py"],
    )
    cell = Cell(CID, "baseline", 0, ROOT, prepared.public, prepared.private, tmp_path / "run", agent, HW)
    assert run_cell(cell, "local", DockerSettings()).status == "ok"
    grade_cell(cell).write(tmp_path / "grade.json")
    record = reproduce_cell(
        cell,
        ReproduceSettings(enabled=True),
        DockerSettings(),
        grade_path=tmp_path / "grade.json",
        out=tmp_path / "again",
    )
    assert (record.verdict, record.status, record.declared_by) == ("reproduced", "ok", "agent config")
    assert record.delta == 0.0 and record.score == record.original_score is not None
    assert record.code_quality["readme"] and record.code_quality["python_files"] > 10
    assert record.code_quality["ruff"]["version"] and record.code_quality["ruff"]["per_kloc"] is not None


def test_a_declared_command_that_writes_nothing_is_failed_with_the_runner_status(
    prepare_once, tmp_path: Path
) -> None:
    prepared = prepare_once(CID)
    agent = _agent(kwargs={"mode": "silent"}, reproduce=["python", "solve.py"])  # it kept no solve.py
    cell = Cell(CID, "silent", 0, ROOT, prepared.public, prepared.private, tmp_path / "run", agent, HW)
    assert run_cell(cell, "local", DockerSettings()).status == "ok"
    grade_cell(cell).write(tmp_path / "grade.json")
    record = reproduce_cell(
        cell,
        ReproduceSettings(enabled=True),
        DockerSettings(),
        grade_path=tmp_path / "grade.json",
        out=tmp_path / "a",
    )
    assert (record.verdict, record.status, record.declared_by) == ("failed", "agent_error", "agent config")
    assert record.score is None and record.delta is None and record.identical is None
    assert "exited with code" in record.reason


def test_a_declared_input_reaches_the_rerun_yet_a_stash_in_it_is_flagged(
    prepare_once, tmp_path: Path
) -> None:
    """A declared input reaches the re-run, and a stash in it is still flagged (issue 48, item 3).

    ``reproduce_inputs`` gives the re-run what it names (here the agent's pickled lookup table): it then
    reproduces, but the kept file still holds the submission's answers, so the reproduction check flags the
    cell and the reproduced headline does not count it.
    """
    from mlebench.reporting.reproduction import counted_reproduced

    prepared = prepare_once(CID)
    agent = _agent(kwargs={"mode": "stash"}, reproduce_inputs=["*.pkl"])
    cell = Cell(CID, "stash", 0, ROOT, prepared.public, prepared.private, tmp_path / "run", agent, HW)
    assert run_cell(cell, "local", DockerSettings()).status == "ok"
    grade_cell(cell).write(tmp_path / "grade.json")
    record = reproduce_cell(
        cell,
        ReproduceSettings(enabled=True),
        DockerSettings(),
        grade_path=tmp_path / "grade.json",
        out=tmp_path / "a",
    )
    assert (record.verdict, record.identical) == ("reproduced", True)
    assert [(e["path"], e["declared"]) for e in record.inputs["given"]] == [
        ("code/model.pkl", True),
        ("code/solve.py", False),
    ]
    assert record.inputs["declared"] == ["*.pkl"] and record.inputs["unmatched"] == []
    assert {e["path"] for e in record.inputs["left_out"]} == {"code/notes.txt", "code/weights.bin"}
    assert {m["path"] for m in record.stash_matches} == {
        "code/model.pkl",
        "code/notes.txt",
        "code/weights.bin",
    }
    check = reproduction_check(record)
    assert check.flagged and any(e.startswith("code/model.pkl: a kept file") for e in check.evidence)
    graded = json.loads((tmp_path / "grade.json").read_text(encoding="utf-8"))
    assert not counted_reproduced({**graded, "any_medal": True}, record.to_json())["any_medal"]
