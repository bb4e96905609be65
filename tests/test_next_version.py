"""The next data version (issue 52, task 4): a competition graded on a re-run of the agent's kept pipeline.

The agent trains on version 1 and keeps its pipeline in ``code/``; the reproduce stage re-runs it on the
hidden version 2 (``rerun.inputs``), and the grade stage scores that re-run. These tests run the real flow
under the local runner (no engine): run the agent, re-run its code, grade, for a pipeline that survives the
changes, hand steps that break on them, an agent that keeps no code, the dummy and the baseline.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pandas as pd
import pytest

from graders.grade import grade
from graders.medals import thresholds
from mlebench.execution.grading import grade_planned
from mlebench.execution.reproduce import reproduce_cell
from mlebench.execution.runners import run_cell
from mlebench.planning.plan import compose, render, resolve
from mlebench.reporting.records import GradeRecord
from mlebench_spec.cell import Cell
from mlebench_spec.declarations import load_competition, parse_declaration
from mlebench_spec.errors import ConfigError, DataError
from mlebench_spec.params import AgentConfig, DockerSettings, Hardware, ReproduceSettings

ROOT = Path(__file__).resolve().parents[1]
CID = "next-data-version"
HW = Hardware(name="cpu", cpus=1, memory="2g", shm_size="64m", pids=64, gpus=0, time_limit_secs=240)

# A pipeline: reads whatever columns the version has, one-hot encodes what is not numeric, re-trains.
PIPELINE = """
import os, shutil
from pathlib import Path
import pandas as pd
from sklearn.linear_model import LogisticRegression
data, out = Path(os.environ["DATA_DIR"]), Path(os.environ["SUBMISSION_DIR"])
code = Path(os.environ["CODE_DIR"])
if Path(__file__).resolve() != (code / "main.py").resolve():
    shutil.copyfile(__file__, code / "main.py")
train, test = pd.read_csv(data / "train.csv"), pd.read_csv(data / "test.csv")
features = [c for c in test.columns if c != "customer_id"]
both = pd.get_dummies(pd.concat([train[features], test[features]]), dtype=float)
model = LogisticRegression(max_iter=2000).fit(both.iloc[: len(train)], train["churned"])
score = model.predict_proba(both.iloc[len(train):])[:, 1]
submission = pd.DataFrame({"customer_id": test["customer_id"], "churned": score})
submission.to_csv(out / "submission.csv", index=False)
"""
# Hand steps: version 1's category codes typed in, columns taken by position.
HAND_STEPS = PIPELINE.replace(
    'features = [c for c in test.columns if c != "customer_id"]\n'
    "both = pd.get_dummies(pd.concat([train[features], test[features]]), dtype=float)",
    "both = pd.concat([train.iloc[:, 1:7], test.iloc[:, 1:7]])\n"
    'both["plan"] = both["plan"].map({"basic": 0, "standard": 1, "premium": 2}).astype(int)\n'
    'both["region"] = both["region"].map({"north": 0, "south": 1, "east": 2, "west": 3}).astype(int)',
)
NO_CODE = PIPELINE.replace('    shutil.copyfile(__file__, code / "main.py")', "    pass")


@pytest.fixture(scope="module")
def checkout(prepare_once, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Make a checkout with the competitions, the agents, and the competition prepared at its usual place."""
    root = tmp_path_factory.mktemp("checkout")
    (root / "competitions").symlink_to(ROOT / "competitions")
    prepared = root / "data" / "prepared"
    prepared.mkdir(parents=True)
    (prepared / CID).symlink_to(prepare_once(CID).out)
    for name, source in (("pipeline", PIPELINE), ("hand", HAND_STEPS), ("nocode", NO_CODE)):
        (root / "agents" / name).mkdir(parents=True)
        (root / "agents" / name / "main.py").write_text(textwrap.dedent(source), encoding="utf-8")
    for name in ("dummy", "baseline"):
        (root / "agents" / name).symlink_to(ROOT / "agents" / name)
    return root


def run_rerun_and_grade(root: Path, agent: str, **config: object) -> tuple[Cell, dict, GradeRecord]:
    """Run ``agent`` on version 1, re-run its code on version 2 (the reproduce stage), grade the re-run."""
    cfg = AgentConfig(path=f"agents/{agent}", command=["python", "main.py"], **config)
    cell = Cell.planned(CID, agent, 0, root, agent_config=cfg, hardware=HW)
    run = run_cell(cell, "local", DockerSettings())
    assert run.status == "ok", (cell.run_dir / "agent_output.log").read_text(encoding="utf-8")
    reproduce_cell(cell, ReproduceSettings(), DockerSettings()).write(cell.reproduction_dir)
    reproduction = json.loads((cell.reproduction_dir / "reproduction.json").read_text(encoding="utf-8"))
    return cell, reproduction, grade_planned(cell)


def test_a_pipeline_is_rerun_on_the_hidden_version_and_graded_there(checkout: Path) -> None:
    cell, reproduction, record = run_rerun_and_grade(checkout, "pipeline")
    assert (reproduction["verdict"], reproduction["status"]) == ("reproduced", "ok")
    assert reproduction["original_score"] is None and reproduction["delta"] is None  # nothing to compare
    assert reproduction["lineage"]["reproduction"]["inputs"] == "private/v2/public"
    assert record.status == "ok" and record.outcome.score == reproduction["score"] > 0.3
    # the re-run saw version 2 (ids of the hidden test, the new column), the run version 1
    again = pd.read_csv(cell.reproduction_dir / "run" / "submission.csv")
    answers = pd.read_csv(cell.private / "answers.csv")
    assert set(again["customer_id"]) == set(answers["customer_id"])
    first = pd.read_csv(cell.run_dir / "submission.csv")
    assert not set(first["customer_id"]) & set(answers["customer_id"])
    assert record.submission_path == f"reproductions/pipeline/{CID}/0/run/submission.csv"
    run = json.loads((cell.run_dir / "run.json").read_text(encoding="utf-8"))
    assert record.hardware == run["hardware"]  # the run's profile, not the re-run's halved limit
    assert record.lineage.public_sha256 == run["public_sha256"] != record.lineage.public_seen_by_agent_sha256


def test_hand_steps_that_break_on_the_next_version_score_nothing_with_the_reason(checkout: Path) -> None:
    _, reproduction, record = run_rerun_and_grade(checkout, "hand")
    assert reproduction["verdict"] == "failed" and reproduction["status"] == "agent_error"
    assert record.status == "agent_error" and record.outcome.score is None
    assert not record.outcome.fields()["any_medal"]
    assert record.reason.startswith(
        "the re-run of code/ on the next data version (private/v2/public): agent_error: "
    ), record.reason


def test_code_that_declares_no_rerun_is_an_invalid_submission_with_the_reason(checkout: Path) -> None:
    _, reproduction, record = run_rerun_and_grade(checkout, "nocode")
    assert reproduction["verdict"] == "not_declared"
    assert record.status == "invalid_submission" and record.outcome.score is None
    assert "did not happen: no reproduce command" in record.reason


def test_the_dummy_scores_zero_and_the_baseline_lands_between_the_dummy_and_gold(checkout: Path) -> None:
    comp = load_competition(CID)
    board = pd.read_csv(comp.leaderboard_path)
    limits = thresholds(board["score"].tolist())
    declared = {"models": [], "uses_test_feedback": False, "web_search": False}
    _, _, dummy = run_rerun_and_grade(checkout, "dummy", disclosures=declared)
    assert dummy.status == "ok" and dummy.outcome.score == 0.0  # the sample: a constant
    assert dummy.disclosures == declared  # the run's declaration: the re-run's run.json has none
    _, reproduction, baseline = run_rerun_and_grade(
        checkout, "baseline", kwargs={"max_train_rows": 20000}, reproduce=["python", "main.py"]
    )
    assert reproduction["declared_by"] == "agent config" and baseline.status == "ok"
    assert dummy.outcome.score < limits.median < baseline.outcome.score < limits.gold


def test_the_leaderboard_is_graded_and_made_on_the_version_it_is_graded_on() -> None:
    board = pd.read_csv(load_competition(CID).leaderboard_path)
    assert len(board) >= 100
    limits = thresholds(board["score"].tolist())
    ladder = [limits.gold, limits.silver, limits.bronze, limits.median]
    assert ladder == sorted(set(ladder), reverse=True), ladder
    by_features = board.groupby("features")["score"].max()
    # hand steps (a model fitted on version 1, applied as it is) fall below every re-trained pipeline's median
    assert by_features["frozen"] < limits.median < by_features["engineered"]


def test_the_plan_reruns_every_cell_before_its_grade_without_process_evaluation() -> None:
    plan = resolve(compose(["competition_set=mlops", "seed=one"]))
    assert "reproduce" not in plan.model_dump()  # process evaluation stays off
    files = render(plan, ROOT)
    for agent in plan.agent:
        stages = _yaml(files[ROOT / "pipelines" / CID / f"{agent}-s0" / "dvc.yaml"])["stages"]
        kinds = [name.rsplit(f"-{agent}-s0", 1)[0] for name in stages]
        assert kinds == ["run_agent", "reproduce", "grade", "integrity"]
        again, grade = stages[f"reproduce-{agent}-s0"], stages[f"grade-{agent}-s0"]
        assert f"grades/{agent}/{CID}/0.json" not in again["deps"] and "reproduce" not in again["params"]
        assert again["outs"] == [f"reproductions/{agent}/{CID}/0"]
        assert again["outs"][0] in grade["deps"] and f"runs/{agent}/{CID}/0" not in grade["deps"]
        assert f"data/prepared/{CID}/private" in again["deps"]
    other = _yaml(files[ROOT / "pipelines" / "drift-monitoring" / "dummy-s0" / "dvc.yaml"])["stages"]
    assert not any(name.startswith("reproduce") for name in other)
    report = _yaml(files[ROOT / "dvc.yaml"])["stages"]["report"]
    assert "--reproduce" not in report["cmd"] and f"grades/dummy/{CID}/0.json" in report["deps"]


def test_bad_submissions_get_the_graders_clear_errors(prepare_once, tmp_path: Path) -> None:
    """Version 1's predictions (its test ids), a word for a score, a renamed column: each refused, named."""
    prepared = prepare_once(CID)
    comp = load_competition(CID)
    stale = grade(comp, prepared.public / "sample_submission.csv", prepared.private)
    assert stale.status == "invalid_submission"
    assert "missing ids: 3000 of the 3000 ids in the answers" in stale.reason
    assert "unexpected ids: 2000 ids" in stale.reason
    sample = pd.read_csv(comp.submission.sample_path(prepared.public, prepared.private))
    for frame, message in (
        (sample.assign(churned="high"), "column 'churned': 3000 values are not a number"),
        (sample.rename(columns={"churned": "p"}), "missing columns: 'churned'"),
    ):
        frame.to_csv(tmp_path / "bad.csv", index=False)
        result = grade(comp, tmp_path / "bad.csv", prepared.private)
        assert result.status == "invalid_submission" and message in result.reason, result.reason


def test_the_grade_stage_needs_the_reproduction_and_says_so(checkout: Path) -> None:
    cell = Cell.planned(CID, "never-run", 0, checkout)
    with pytest.raises(
        DataError, match=r"reproduction.json is missing: next-data-version is graded on a re-run"
    ):
        grade_planned(cell)


def test_the_hidden_inputs_must_be_a_prepared_folder_in_private(tmp_path: Path) -> None:
    text = (ROOT / "competitions" / CID / "competition.yaml").read_text(encoding="utf-8")
    bad = tmp_path / "competition.yaml"
    bad.write_text(text.replace("inputs: private/v2/public", "inputs: public/v2"), encoding="utf-8")
    with pytest.raises(
        ConfigError, match=r"rerun.inputs: 'public/v2' must be a folder private/<name>/public"
    ):
        parse_declaration(bad)


def _yaml(text: str) -> dict:
    from ruamel.yaml import YAML

    return YAML(typ="safe", pure=True).load(text)
