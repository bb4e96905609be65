"""`mlebench bundle` and `mlebench verify-bundle` on a small graded grid in a temporary checkout.

The grid: the dummy agent on titanic-lite, seeds 0-2, graded for real. Seed 0 submits the answers (gold),
seeds 1 and 2 the sample submission (no medal), so the embedded split is 33.33 ± 33.33. Each cell has a
large log (truncated in the bundle) and a large code file (left out). A fresh bundle verifies; a changed
score, a changed submission and a missing seed each fail with the file named, even when the tamperer also
re-hashes the manifest.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from mlebench.cli import main as cli
from mlebench.execution.docker.agent import ContainerRunRecord
from mlebench.execution.grading import grade_cell
from mlebench.integrity.bundled import rederivers
from mlebench.reporting.bundle import MANIFEST, Caps, build_bundle, file_hashes
from mlebench.reporting.v1 import ENTRY_FIELDS, TOTALS
from mlebench.reporting.verify import Verification, verify_bundle
from mlebench_spec.cell import Cell
from mlebench_spec.files import utc_now, write_json, write_text
from mlebench_spec.hashing import sha256_file
from mlebench_spec.manifest import MANIFEST as MANIFEST_NAME
from mlebench_spec.params import Plan, validate_plan

ROOT = Path(__file__).resolve().parents[1]
CID = "titanic-lite"
SEEDS = [0, 1, 2]
HARDWARE = {
    "name": "cpu",
    "cpus": 2.0,
    "memory": "4g",
    "shm_size": "1g",
    "pids": 512,
    "gpus": 0,
    "time_limit_secs": 900,
}
CAPS = Caps(log_bytes=2000, code_bytes=1000)


DISCLOSED = {"models": [], "uses_test_feedback": False, "web_search": False}


def _plan(disclosures: dict | None = None) -> Plan:
    agent = {"path": "agents/dummy", "command": ["python", "main.py"]}
    agent["disclosures"] = disclosures or DISCLOSED
    config = {
        "agent": {"dummy": agent},
        "competition_set": {"name": "custom", "ids": [CID]},
        "hardware": HARDWARE,
        "seeds": SEEDS,
        "runner": "local",
    }
    return validate_plan(config, "test plan")


def _verify(bundle: Path, checkout: Path, **kwargs) -> Verification:
    """Verify as the CLI does: isolation and integrity re-derived."""
    return verify_bundle(bundle, checkout, rederive=rederivers(), **kwargs)


@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory, prepare_once) -> Path:
    """Build a checkout with this one's competitions and graders, and three graded cells."""
    root = tmp_path_factory.mktemp("bundle") / "checkout"
    root.mkdir()
    for name in ("competitions", "graders", "agents", "conf"):
        (root / name).symlink_to(ROOT / name)
    prepared = prepare_once(CID)
    for part in ("public", "private"):
        shutil.copytree(getattr(prepared, part), root / "data" / "prepared" / CID / part)
    shutil.copyfile(prepared.public.parent / MANIFEST_NAME, root / "data" / "prepared" / CID / MANIFEST_NAME)
    write_text(root / "params.yaml", json.dumps(_plan().model_dump(mode="json")))  # JSON is YAML
    plan = _plan()
    for seed in SEEDS:
        cell = Cell.planned(CID, "dummy", seed, root, plan.agent["dummy"], plan.hardware)
        source = cell.private / "answers.csv" if seed == 0 else cell.public / "sample_submission.csv"
        cell.run_dir.mkdir(parents=True)
        shutil.copyfile(source, cell.run_dir / "submission.csv")
        write_text(  # a program that writes the submission from a file it reads (the integrity checks pass)
            cell.run_dir / "code" / "main.py",
            "import pandas as pd\n"
            "table = pd.read_csv('/home/data/sample_submission.csv')\n"
            "table.to_csv('/home/submission/submission.csv', index=False)\n",
        )
        write_text(cell.run_dir / "code" / "weights.txt", "w" * 5000)
        write_text(cell.run_dir / "logs" / "agent.log", "".join(f"line {i}\n" for i in range(1000)))
        now = utc_now()
        ContainerRunRecord.for_cell(  # isolated: a local run never counts in a leaderboard row
            cell,
            "docker",
            status="ok",
            exit_code=0,
            started_at=now,
            finished_at=now,
            agent_seconds=1.0,
            submission_exists=True,
            submission_sha256=sha256_file(cell.run_dir / "submission.csv"),
        ).write(cell.run_dir)
        grade_cell(cell, grader="host").write(cell.grade_path)
    return root


@pytest.fixture
def bundle(checkout: Path, tmp_path: Path) -> Path:
    out = tmp_path / "bundle"
    build_bundle(_plan(), "dummy", out, checkout, CAPS)
    return out


def _rehash(folder: Path) -> None:
    """Make the manifest agree with the files again, as a careful tamperer would after editing."""
    manifest = json.loads((folder / MANIFEST).read_text())
    manifest["files"] = file_hashes(folder)
    (folder / MANIFEST).write_text(json.dumps(manifest))


def test_a_fresh_tarball_verifies_and_gives_the_row(checkout: Path, tmp_path: Path) -> None:
    out = tmp_path / "dummy.tar.gz"
    submission = build_bundle(_plan(), "dummy", out, checkout, CAPS)
    assert submission["leaderboard_row"].endswith("Embedded 33.33 ± 33.33")
    result = _verify(out, checkout)
    assert result.ok, result.problems
    assert result.regraded == 3 and result.row == submission["leaderboard_row"]


def test_a_bundle_verifies_against_a_v1_layout_data_dir(bundle: Path, checkout: Path, tmp_path: Path) -> None:
    """``--data-dir`` may be MLE-bench v1's layout: ``<dir>/<id>/prepared/{public,private}``."""
    shutil.copytree(checkout / "data" / "prepared" / CID, tmp_path / "v1" / CID / "prepared")
    result = _verify(bundle, checkout, data_dir=tmp_path / "v1")
    assert result.ok, result.problems
    assert result.regraded == 3


def test_the_bundle_holds_v1_reports_records_and_disclosures(bundle: Path) -> None:
    for seed in SEEDS:
        report = json.loads((bundle / "runs" / f"dummy_seed{seed}" / "grading_report.json").read_text())
        assert list(report) == [*TOTALS, "competition_reports"]
        (entry,) = report["competition_reports"]
        assert list(entry) == [*ENTRY_FIELDS, "status", "reason"]
        assert entry["submission_path"] == f"cells/{CID}/{seed}/submission.csv"
        assert report["total_medals"] == (seed == 0)
        record = json.loads((bundle / "cells" / CID / str(seed) / "grade.json").read_text())
        assert record["lineage"]["private_sha256"] and record["seed"] == seed
    assert json.loads((bundle / "disclosures.json").read_text()) == DISCLOSED
    assert json.loads((bundle / "hardware.json").read_text())["profile"] == HARDWARE
    assert (bundle / "run_group_experiments.csv").read_text().splitlines()[1:] == [
        f"dummy,dummy_seed{s}" for s in SEEDS
    ]
    manifest = json.loads((bundle / MANIFEST).read_text())
    assert manifest["files"] == file_hashes(bundle)
    log = f"cells/{CID}/0/logs/agent.log"
    assert (bundle / log).stat().st_size == 2000 and (bundle / log).read_text().endswith("line 999\n")
    assert manifest["truncated"][log]["bytes"] > 2000
    assert f"cells/{CID}/0/code/weights.txt" in manifest["omitted"]
    assert (bundle / "cells" / CID / "0" / "code" / "main.py").is_file()


def test_declared_disclosures_are_carried(checkout: Path, tmp_path: Path) -> None:
    declared = {"models": ["gpt-4o"], "uses_test_feedback": True, "web_search": False}
    build_bundle(_plan(declared), "dummy", tmp_path / "b", checkout, CAPS)
    assert json.loads((tmp_path / "b" / "disclosures.json").read_text()) == declared


def test_a_tampered_score_fails_naming_the_file(bundle: Path, checkout: Path) -> None:
    path = bundle / "runs" / "dummy_seed1" / "grading_report.json"
    report = json.loads(path.read_text())
    report["competition_reports"][0].update(score=0.99, any_medal=True, gold_medal=True)
    report["total_medals"] = report["total_gold_medals"] = 1
    path.write_text(json.dumps(report))
    _rehash(bundle)
    problems = _verify(bundle, checkout).problems
    assert f"runs/dummy_seed1/grading_report.json: {CID}: score claimed 0.99, re-graded" in "\n".join(
        problems
    )
    assert any(
        p.startswith("runs/dummy_seed1/grading_report.json: titanic-lite: any_medal") for p in problems
    )


def test_a_tampered_submission_fails_naming_the_file(bundle: Path, checkout: Path) -> None:
    answers = checkout / "data" / "prepared" / CID / "private" / "answers.csv"
    shutil.copyfile(answers, bundle / "cells" / CID / "1" / "submission.csv")  # a gold submission swapped in
    _rehash(bundle)
    problems = _verify(bundle, checkout).problems
    assert any(p.startswith(f"cells/{CID}/1/submission.csv: sha256") for p in problems), problems
    assert any(p.startswith(f"cells/{CID}/1/grade.json: score claimed") for p in problems), problems


def test_a_missing_seed_fails_naming_the_file(bundle: Path, checkout: Path) -> None:
    shutil.rmtree(bundle / "runs" / "dummy_seed2")
    shutil.rmtree(bundle / "cells" / CID / "2")
    _rehash(bundle)
    problems = _verify(bundle, checkout).problems
    assert "runs/dummy_seed2/grading_report.json: seed 2 has no grading report" in problems
    assert any(p.startswith("submission.json: figures.embedded") for p in problems)


def test_an_edit_the_manifest_does_not_know_is_named(bundle: Path, checkout: Path) -> None:
    log = bundle / "cells" / CID / "0" / "logs" / "agent.log"
    log.write_text("nothing to see\n")
    (bundle / "extra.txt").write_text("x")
    problems = _verify(bundle, checkout).problems
    assert any(p.startswith(f"cells/{CID}/0/logs/agent.log: sha256") for p in problems)
    assert "extra.txt: not in the manifest" in problems


def test_the_cli_bundles_and_verifies(
    checkout: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    monkeypatch.setenv("MLEBENCH_ROOT", str(checkout))
    out = tmp_path / "cli.tar.gz"
    assert cli(["bundle", "--out", str(out), "--max-log-bytes", "100"]) == 0
    assert cli(["verify-bundle", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "submissions re-graded" in printed and "Embedded 33.33 ± 33.33" in printed
    assert cli(["verify-bundle", str(tmp_path / "nowhere.tar.gz")]) == 2


def test_flagged_and_unisolated_cells_do_not_count_in_the_row(checkout: Path, tmp_path: Path) -> None:
    """Seed 0 (gold) flagged: it keeps its score but wins nothing in the row; unisolated: it is left out."""
    verdict = Cell.planned(CID, "dummy", 0, checkout).integrity_path
    write_json(
        verdict,
        {
            "verdict": "flagged",
            "checks": [
                {"check": "own_code", "flagged": True, "evidence": ["no code wrote it"], "details": {}}
            ],
            "plagiarism": None,
            "judge": None,
            "checked_at": utc_now(),
            "settings_sha256": "s",
        },
    )
    try:
        submission = build_bundle(_plan(), "dummy", tmp_path / "flagged", checkout, CAPS)
        assert submission["leaderboard_row"].endswith("Embedded 0.00 ± 0.00")
        assert submission["flagged_cells"][0]["flags"] == [
            {"check": "own_code", "evidence": ["no code wrote it"]}
        ]
        assert (tmp_path / "flagged" / "cells" / CID / "0" / "integrity.json").is_file()
        result = _verify(tmp_path / "flagged", checkout)
        assert result.ok, result.problems
        assert result.row == submission["leaderboard_row"]
    finally:
        verdict.unlink()
    grade = Cell.planned(CID, "dummy", 0, checkout).grade_path
    original = grade.read_text()
    try:
        # the run record says local (verify-bundle re-derives isolation from it, never from grade.json)
        run = Cell.planned(CID, "dummy", 0, checkout).run_dir / "run.json"
        ran = run.read_text()
        run.write_text(json.dumps({**json.loads(ran), "runner": "local"}))
        grade.write_text(json.dumps({**json.loads(original), "isolation": "unisolated"}))
        submission = build_bundle(_plan(), "dummy", tmp_path / "local", checkout, CAPS)
        assert submission["unisolated_cells"] == [{"competition_id": CID, "seed": 0}]
        assert submission["figures"]["embedded"]["seeds"] == 2  # seed 0 left out, not counted as failing
        assert submission["leaderboard_row"].endswith("Embedded 0.00 ± 0.00")
        result = _verify(tmp_path / "local", checkout)
        assert result.ok and result.row == submission["leaderboard_row"], result.problems
    finally:
        grade.write_text(original)
        run.write_text(ran)


def test_reproductions_are_bundled_and_may_gate_the_row(checkout: Path, tmp_path: Path) -> None:
    """Issue 42: reproductions travel with their cells and may gate the leaderboard row.

    Each cell's reproduction.json is bundled, submission.json holds the agent's process section, and under
    headline `reproduced` the gold of seed 0 (its code did not reproduce it) no longer counts, in the
    bundle's row and in the row verify-bundle recomputes.
    """
    from mlebench.reporting.reproduction import ReproductionRecord

    for seed in SEEDS:  # every re-run wrote the sample submission: seed 0's gold did not reproduce
        cell = Cell.planned(CID, "dummy", seed, root=checkout)
        _rerun(cell)
        ReproductionRecord(
            competition_id=CID,
            agent="dummy",
            seed=seed,
            verdict="differs" if seed == 0 else "reproduced",
            status="ok",
            score=_score(cell, again=True),
            original_score=_score(cell),
            delta=round(_score(cell, again=True) - _score(cell), 10),
            seconds=1.0,
            run_seconds=2.0,
            time_limit_secs=450,
            command=["python", "main.py"],
            declared_by="default: the one *.py in code/",
            tolerance={"worse": 0.01, "better": 0.01},
            is_lower_better=False,
            reason="",
            runner="docker",
            created_at=utc_now(),
            lineage=_rerun_lineage(cell),
        ).write(cell.reproduction_dir)
    data = _plan().model_dump(mode="json")
    reported = validate_plan({**data, "reproduce": {"enabled": True}}, "test plan")
    gated = validate_plan({**data, "reproduce": {"enabled": True, "headline": "reproduced"}}, "test plan")
    plain = build_bundle(reported, "dummy", tmp_path / "reported", checkout, CAPS)
    assert plain["process"]["verdicts"] == {"reproduced": 2, "differs": 1, "failed": 0, "not_declared": 0}
    gap = round(_score(Cell.planned(CID, "dummy", 1, checkout)) - 1.0, 10)
    assert plain["process"]["deltas"] == [gap, 0.0, 0.0] and plain["process"]["headline"] == "all"
    assert plain["leaderboard_row"].endswith("Embedded 33.33 ± 33.33")
    assert (
        json.loads((tmp_path / "reported" / "cells" / CID / "0" / "reproduction.json").read_text())["delta"]
        == gap
    )
    out = tmp_path / "gated.tar.gz"
    submission = build_bundle(gated, "dummy", out, checkout, CAPS)
    assert submission["leaderboard_row"].endswith("Embedded 0.00 ± 0.00")
    result = _verify(out, checkout)
    assert result.ok, result.problems
    assert result.row == submission["leaderboard_row"]
    assert "process" not in build_bundle(_plan(), "dummy", tmp_path / "off", checkout, CAPS)


def _rerun(cell: Cell) -> None:
    """Lay out a reproduction's re-run as the reproduce stage does: it wrote the public sample."""
    run = cell.reproduction_dir / "run"
    run.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(cell.public / "sample_submission.csv", run / "submission.csv")
    write_json(cell.reproduction_dir / "grade.json", {"status": "ok"})


def _score(cell: Cell, again: bool = False) -> float:
    """Return the original's score, or the re-run's (the sample's, as seed 1 graded it)."""
    seed = 1 if again else cell.seed
    return json.loads(Cell.planned(CID, "dummy", seed, cell.root).grade_path.read_text())["score"]


def _rerun_lineage(cell: Cell) -> dict:
    return {
        "original": {"submission_sha256": sha256_file(cell.run_dir / "submission.csv")},
        "reproduction": {"submission_sha256": sha256_file(cell.reproduction_dir / "run" / "submission.csv")},
    }


def _edit(path: Path, **changes) -> None:
    write_json(path, {**json.loads(path.read_text()), **changes})


def test_an_edited_isolation_is_named_and_rederived(bundle: Path, checkout: Path) -> None:
    """Issue 48: a podman cell (limits not held: unisolated) whose grade.json was set to isolated.

    Before: verified, its gold counted at 100 %. Now the isolation is re-derived from the bundled run.json,
    by the podman record's own rule: the edit is named and the cell is left out.
    """
    cell = bundle / "cells" / CID / "0"
    _edit(cell / "run.json", runner="podman", docker={"cgroup_version": "v1"})  # the genuine record
    assert json.loads((cell / "grade.json").read_text())["isolation"] == "isolated"  # the edit
    _rehash(bundle)
    result = _verify(bundle, checkout)
    named = [p for p in result.problems if p.startswith(f"cells/{CID}/0/grade.json: isolation 'isolated'")]
    assert named and "runner 'podman'" in named[0] and "did not hold the agent" in named[0], result.problems
    assert result.figures["embedded"]["seeds"] == 2  # seed 0 left out, as the headline leaves it


def test_a_swapped_in_submission_with_matching_records_is_named(bundle: Path, checkout: Path) -> None:
    """Issue 48: a perfect submission.csv swapped in, its score fields and lineage hash edited to match.

    The grade record and the grading report agree with the new file, so the re-grade does too; the runner's
    own hash of what it collected (run.json) does not.
    """
    answers = checkout / "data" / "prepared" / CID / "private" / "answers.csv"
    cell = bundle / "cells" / CID / "1"
    gold = json.loads((bundle / "cells" / CID / "0" / "grade.json").read_text())
    shutil.copyfile(answers, cell / "submission.csv")
    fields = {k: gold[k] for k in ("score", "gold_medal", "silver_medal", "bronze_medal", "any_medal")}
    record = json.loads((cell / "grade.json").read_text())
    record["lineage"]["submission_sha256"] = sha256_file(cell / "submission.csv")
    write_json(cell / "grade.json", {**record, **fields})
    report = bundle / "runs" / "dummy_seed1" / "grading_report.json"
    data = json.loads(report.read_text())
    data["competition_reports"][0].update(fields)
    data["total_medals"] = data["total_gold_medals"] = 1
    write_json(report, data)
    _rehash(bundle)
    problems = _verify(bundle, checkout).problems
    assert [p for p in problems if "score claimed" in p or "any_medal claimed" in p] == []  # all agree
    assert any(
        p.startswith(f"cells/{CID}/1/submission.csv: sha256") and "the runner collected" in p
        for p in problems
    ), problems


def test_edited_integrity_and_reproduction_verdicts_are_named(
    checkout: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """Issue 48: a flagged cell's integrity.json and reproduction.json edited to clean and reproduced.

    Seed 0's gold was written by no program (its code only prints): the integrity stage flagged it and its
    re-run wrote the sample (differs). Both records are then edited, checks and evidence included, the
    manifest re-hashed. verify-bundle re-runs the checks over the bundled code and logs and re-grades the
    bundled re-run: both edits are named, the gold does not count, and the command exits 1.
    """
    from mlebench.reporting.reproduction import ReproductionRecord

    cell = Cell.planned(CID, "dummy", 0, checkout)
    main = cell.run_dir / "code" / "main.py"
    program = main.read_text()
    main.write_text("print('hello')\n")
    write_json(
        cell.integrity_path,
        {
            "verdict": "flagged",
            "checks": [
                {
                    "check": "submission_provenance",
                    "flagged": True,
                    "evidence": ["no file writes it"],
                    "details": {},
                }
            ],
            "plagiarism": None,
            "judge": None,
            "checked_at": utc_now(),
            "settings_sha256": "s",
        },
    )
    _rerun(cell)
    ReproductionRecord(
        competition_id=CID,
        agent="dummy",
        seed=0,
        verdict="differs",
        status="ok",
        score=_score(cell, again=True),
        original_score=_score(cell),
        delta=round(_score(cell, again=True) - _score(cell), 10),
        seconds=1.0,
        run_seconds=2.0,
        time_limit_secs=450,
        command=["python", "main.py"],
        declared_by="agent config",
        tolerance={"worse": 0.01, "better": 0.01},
        is_lower_better=False,
        reason="",
        runner="docker",
        created_at=utc_now(),
        lineage=_rerun_lineage(cell),
    ).write(cell.reproduction_dir)
    data = _plan().model_dump(mode="json")
    plan = validate_plan({**data, "reproduce": {"enabled": True, "headline": "reproduced"}}, "test plan")
    out = tmp_path / "edited"
    try:
        build_bundle(plan, "dummy", out, checkout, CAPS)
    finally:
        main.write_text(program)
        cell.integrity_path.unlink()
        shutil.rmtree(cell.reproduction_dir)
    bundled = out / "cells" / CID / "0"
    _edit(bundled / "integrity.json", verdict="clean", checks=[])
    _edit(bundled / "reproduction.json", verdict="reproduced", delta=0.0)
    submission = json.loads((out / "submission.json").read_text())
    submission["flagged_cells"] = []
    submission["figures"]["embedded"]["metrics"]["any_medal"]["per_seed"] = [100.0, 0.0, 0.0]
    write_json(out / "submission.json", submission)
    _rehash(out)
    result = _verify(out, checkout)
    text = "\n".join(result.problems)
    assert f"cells/{CID}/0/integrity.json: check 'submission_provenance' is not flagged there" in text, text
    assert f"cells/{CID}/0/reproduction.json: verdict 'reproduced', re-derived 'differs'" in text, text
    assert "submission.json: figures.embedded claim any-medal % per seed [100.0, 0.0, 0.0]" in text, text
    assert result.row.endswith("Embedded 0.00 ± 0.00")
    monkeypatch.setenv("MLEBENCH_ROOT", str(checkout))
    assert cli(["verify-bundle", str(out)]) == 1
    assert "submission_provenance" in capsys.readouterr().out
