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
from mlebench.reporting.bundle import MANIFEST, Caps, build_bundle, file_hashes
from mlebench.reporting.v1 import ENTRY_FIELDS, TOTALS
from mlebench.reporting.verify import verify_bundle
from mlebench_spec.cell import Cell
from mlebench_spec.files import utc_now, write_json, write_text
from mlebench_spec.hashing import sha256_tree
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
    for seed in SEEDS:
        cell = Cell.planned(CID, "dummy", seed, root)
        source = cell.private / "answers.csv" if seed == 0 else cell.public / "sample_submission.csv"
        cell.run_dir.mkdir(parents=True)
        shutil.copyfile(source, cell.run_dir / "submission.csv")
        write_text(cell.run_dir / "code" / "main.py", "print('hello')\n")
        write_text(cell.run_dir / "code" / "weights.txt", "w" * 5000)
        write_text(cell.run_dir / "logs" / "agent.log", "".join(f"line {i}\n" for i in range(1000)))
        now = utc_now()
        ContainerRunRecord(  # isolated: a local run never counts in a leaderboard row
            competition_id=CID,
            agent="dummy",
            seed=seed,
            runner="docker",
            status="ok",
            exit_code=0,
            started_at=now,
            finished_at=now,
            agent_seconds=1.0,
            time_limit_secs=900,
            hardware=HARDWARE,
            limits_enforced=[],
            submission_exists=True,
            extraction_notes=[],
            agent_sha256="a" * 64,
            config_sha256="c" * 64,
            public_sha256=sha256_tree(cell.public),
            python="3",
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
    result = verify_bundle(out, checkout)
    assert result.ok, result.problems
    assert result.regraded == 3 and result.row == submission["leaderboard_row"]


def test_a_bundle_verifies_against_a_v1_layout_data_dir(bundle: Path, checkout: Path, tmp_path: Path) -> None:
    """``--data-dir`` may be MLE-bench v1's layout: ``<dir>/<id>/prepared/{public,private}``."""
    shutil.copytree(checkout / "data" / "prepared" / CID, tmp_path / "v1" / CID / "prepared")
    result = verify_bundle(bundle, checkout, data_dir=tmp_path / "v1")
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
    problems = verify_bundle(bundle, checkout).problems
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
    problems = verify_bundle(bundle, checkout).problems
    assert any(p.startswith(f"cells/{CID}/1/submission.csv: sha256") for p in problems), problems
    assert any(p.startswith(f"cells/{CID}/1/grade.json: score claimed") for p in problems), problems


def test_a_missing_seed_fails_naming_the_file(bundle: Path, checkout: Path) -> None:
    shutil.rmtree(bundle / "runs" / "dummy_seed2")
    shutil.rmtree(bundle / "cells" / CID / "2")
    _rehash(bundle)
    problems = verify_bundle(bundle, checkout).problems
    assert "runs/dummy_seed2/grading_report.json: seed 2 has no grading report" in problems
    assert any(p.startswith("submission.json: figures.embedded") for p in problems)


def test_an_edit_the_manifest_does_not_know_is_named(bundle: Path, checkout: Path) -> None:
    log = bundle / "cells" / CID / "0" / "logs" / "agent.log"
    log.write_text("nothing to see\n")
    (bundle / "extra.txt").write_text("x")
    problems = verify_bundle(bundle, checkout).problems
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
        result = verify_bundle(tmp_path / "flagged", checkout)
        assert result.ok, result.problems
        assert result.row == submission["leaderboard_row"]
    finally:
        verdict.unlink()
    grade = Cell.planned(CID, "dummy", 0, checkout).grade_path
    original = grade.read_text()
    try:
        grade.write_text(json.dumps({**json.loads(original), "isolation": "unisolated"}))
        submission = build_bundle(_plan(), "dummy", tmp_path / "local", checkout, CAPS)
        assert submission["unisolated_cells"] == [{"competition_id": CID, "seed": 0}]
        assert submission["figures"]["embedded"]["seeds"] == 2  # seed 0 left out, not counted as failing
        assert submission["leaderboard_row"].endswith("Embedded 0.00 ± 0.00")
        assert verify_bundle(tmp_path / "local", checkout).row == submission["leaderboard_row"]
    finally:
        grade.write_text(original)


def test_reproductions_are_bundled_and_may_gate_the_row(checkout: Path, tmp_path: Path) -> None:
    """Issue 42: reproductions travel with their cells and may gate the leaderboard row.

    Each cell's reproduction.json is bundled, submission.json holds the agent's process section, and under
    headline `reproduced` the gold of seed 0 (its code did not reproduce it) no longer counts, in the
    bundle's row and in the row verify-bundle recomputes.
    """
    from mlebench.reporting.reproduction import ReproductionRecord

    for seed in SEEDS:
        cell = Cell.planned(CID, "dummy", seed, root=checkout)
        ReproductionRecord(
            competition_id=CID,
            agent="dummy",
            seed=seed,
            verdict="differs" if seed == 0 else "reproduced",
            status="ok",
            score=0.6,
            original_score=1.0 if seed == 0 else 0.6,
            delta=-0.4 if seed == 0 else 0.0,
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
        ).write(cell.reproduction_dir)
    data = _plan().model_dump(mode="json")
    reported = validate_plan({**data, "reproduce": {"enabled": True}}, "test plan")
    gated = validate_plan({**data, "reproduce": {"enabled": True, "headline": "reproduced"}}, "test plan")
    plain = build_bundle(reported, "dummy", tmp_path / "reported", checkout, CAPS)
    assert plain["process"]["verdicts"] == {"reproduced": 2, "differs": 1, "failed": 0, "not_declared": 0}
    assert plain["process"]["deltas"] == [-0.4, 0.0, 0.0] and plain["process"]["headline"] == "all"
    assert plain["leaderboard_row"].endswith("Embedded 33.33 ± 33.33")
    assert (
        json.loads((tmp_path / "reported" / "cells" / CID / "0" / "reproduction.json").read_text())["delta"]
        == -0.4
    )
    out = tmp_path / "gated.tar.gz"
    submission = build_bundle(gated, "dummy", out, checkout, CAPS)
    assert submission["leaderboard_row"].endswith("Embedded 0.00 ± 0.00")
    result = verify_bundle(out, checkout)
    assert result.ok, result.problems
    assert result.row == submission["leaderboard_row"]
    assert "process" not in build_bundle(_plan(), "dummy", tmp_path / "off", checkout, CAPS)
