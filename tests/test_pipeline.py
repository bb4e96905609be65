"""End to end: `dvc repro` of two embedded competitions in a temporary copy of the repository.

Covers: the whole chain fetch → prepare → selfcheck → run_agent → grade → report; lineage in every record;
a second `dvc repro` is a no-op; editing one agent's config makes only that agent's cells stale; editing a
grader, or a leaderboard, re-runs only grading, the self-check and the report; `dvc push`, delete,
`dvc pull`, and `dvc repro` re-runs nothing.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from checkout_copy import copy_checkout, plan_and_commit
from checkout_copy import run as _run
from resident_server import resident_runtime

COMPS = ["titanic-lite", "chicago-ridership"]
LINEAGE = [
    "public_sha256",
    "private_sha256",
    "submission_sha256",
    "agent_sha256",
    "config_sha256",
    "grader_sha256",
    "competition_sha256",
]

pytestmark = pytest.mark.slow


def _stale(repo: Path) -> set[str]:
    out = json.loads(_run(["dvc", "status", "--json"], repo).stdout or "{}")
    return {
        name.split(":")[-1] + "@" + name.split("/")[1] if name.startswith("pipelines/") else name
        for name in out
    }


@pytest.fixture(scope="module")
def resident() -> Iterator[Path]:
    """Run this module's stages as users' are run: through a resident stage server; yield its folder."""
    with resident_runtime() as runtime, pytest.MonkeyPatch.context() as patch:
        patch.setenv("MLEBENCH_RESIDENT_STAGES", "1")
        patch.setenv("XDG_RUNTIME_DIR", str(runtime))
        yield runtime / "mlebench-stages"


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory, resident: Path) -> Path:
    """Copy the checkout, plan two competitions × both agents × seeds 0 and 1, and reproduce it."""
    dest = copy_checkout(tmp_path_factory.mktemp("e2e"))
    plan_and_commit(
        dest, ["competition_set=custom", f"competition_set.ids=[{','.join(COMPS)}]", "seeds=[0,1]"]
    )
    _run(["dvc", "repro"], dest)
    return dest


def test_the_cells_stages_ran_in_the_resident_server(repo: Path, resident: Path) -> None:
    log = "".join(path.read_text() for path in resident.glob("*.log"))
    for kind in ("run_agent", "grade", "integrity"):
        ran = log.count(f": stages.{kind} --competition")
        assert ran >= len(COMPS) * 2 * 2 // 2, (kind, log[-3000:])  # those before it listened ran cold


def test_repro_grades_every_cell_with_lineage(repo: Path) -> None:
    for agent in ("dummy", "baseline"):
        for comp in COMPS:
            for seed in (0, 1):
                record = json.loads((repo / "grades" / agent / comp / f"{seed}.json").read_text())
                assert record["status"] in ("ok", "invalid_submission"), record
                assert all(record["lineage"][key] for key in LINEAGE), record["lineage"]
                assert record["seed"] == seed and record["hardware"]["name"] == "cpu"
                if agent == "dummy":
                    assert record["valid_submission"] and not record["any_medal"]
    report = json.loads((repo / "report" / "report.json").read_text())
    assert report["agents"]["dummy"]["as_scored"]["custom"]["complete_seeds"] == [0, 1]
    runners = {json.loads(p.read_text())["runner"] for p in (repo / "grades").rglob("*.json")}
    headline_seeds = report["agents"]["dummy"]["groups"]["custom"]["complete_seeds"]
    assert headline_seeds == ([] if runners == {"local"} else [0, 1])  # local cells never count
    shown = _run(["dvc", "metrics", "show", "--json"], repo).stdout
    assert "any_medal_pct" in shown


def test_the_report_page_and_the_dvc_plot(repo: Path) -> None:
    """report.html renders without errors; `dvc plots show` lists the headline series the stage wrote."""
    from browser import open_page

    shown = json.loads(_run(["dvc", "plots", "show", "--json"], repo).stdout)
    (plot,) = shown["data"]["report/headline.csv"]
    rows = plot["content"]["data"]["values"]
    assert {(r["agent"], r["group"]) for r in rows} == {
        (a, g) for a in ("dummy", "baseline") for g in ("custom", "embedded")
    }
    page = open_page(
        repo / "report" / "report.html", {"charts": "document.querySelectorAll('svg.chart').length"}
    )
    assert page.errors == [] and page.requests == [] and page.values["charts"] == 3


def test_second_repro_is_a_no_op(repo: Path) -> None:
    assert _stale(repo) == set()
    out = _run(["dvc", "repro"], repo).stdout
    assert "Running stage" not in out


def test_editing_one_agent_makes_only_its_cells_stale(repo: Path) -> None:
    params = repo / "params.yaml"
    original = params.read_text()
    try:
        params.write_text(original.replace("max_train_rows: 20000", "max_train_rows: 19999"))
        stale = _stale(repo)
        assert stale and all(s.startswith(("run_agent-baseline", "integrity-baseline")) for s in stale), stale
    finally:
        params.write_text(original)


def _ran(output: str) -> set[str]:
    """Stages a `dvc repro` ran, as 'pipeline file:stage name'."""
    return {line.split("'")[1] for line in output.splitlines() if line.startswith("Running stage")}


def test_editing_a_grader_reruns_only_grading_and_the_report(repo: Path) -> None:
    registry = repo / "graders" / "registry.py"
    original = registry.read_text()
    try:
        registry.write_text(original + "\n# an edit to the graders\n")
        ran = _ran(_run(["dvc", "repro"], repo).stdout)
        assert {s.split(":")[-1].split("-")[0] for s in ran} == {"grade", "selfcheck", "report"}, ran
        assert sum(s.split(":")[-1].startswith("grade-") for s in ran) == 2 * len(COMPS) * 2
    finally:
        registry.write_text(original)
        _run(["dvc", "repro"], repo)


def test_a_new_leaderboard_reruns_the_selfcheck_and_grading_never_the_agents(repo: Path) -> None:
    """New thresholds change the self-check's report, not the gate agents depend on."""
    leaderboard = repo / "competitions" / "titanic-lite" / "leaderboard.csv"
    original = leaderboard.read_text()
    try:
        header, *rows = original.splitlines(keepends=True)
        leaderboard.write_text(header + "".join(rows[:-1]))  # one team fewer: thresholds move
        ran = _ran(_run(["dvc", "repro"], repo).stdout)
        assert {s.split(":")[-1].split("-")[0] for s in ran} == {"grade", "selfcheck", "report"}, ran
        assert all("titanic-lite" in s for s in ran if s.split(":")[-1] != "report"), ran
        gate = repo / "data" / "selfcheck" / "titanic-lite.passed"
        assert gate.read_text() == "passed: the answers earn gold and the sample submission no medal\n"
    finally:
        leaderboard.write_text(original)
        _run(["dvc", "repro"], repo)


def test_push_delete_pull_then_repro_runs_nothing(repo: Path) -> None:
    _run(["dvc", "push"], repo)
    for name in ("data", "runs", "grades", "report"):
        shutil.rmtree(repo / name)
    shutil.rmtree(repo / ".dvc" / "cache")
    answers = list((repo.parent / "remote" / "answers").rglob("*"))
    assert answers, "private answers must go to the separate `answers` remote"
    _run(["dvc", "pull"], repo)
    assert (repo / "data" / "prepared" / COMPS[0] / "private" / "answers.csv").is_file()
    out = _run(["dvc", "repro"], repo).stdout
    assert "Running stage" not in out, out
