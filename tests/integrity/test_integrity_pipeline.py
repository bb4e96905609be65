"""End to end: the integrity stages in a generated pipeline (`dvc repro` in a temporary copy).

The dummy and baseline agents' real runs on one embedded competition come out clean; editing the integrity
settings (a forbidden-resource list, a limit) or a check's code makes exactly the integrity stages stale,
and `dvc repro` then re-runs them (and the report that reads them), never an agent.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from checkout_copy import copy_checkout, plan_and_commit
from checkout_copy import run as _run

COMP = "titanic-lite"
pytestmark = pytest.mark.slow


def _stale(repo: Path) -> set[str]:
    return {
        name.split(":")[-1] for name in json.loads(_run(["dvc", "status", "--json"], repo).stdout or "{}")
    }


def _ran(output: str) -> set[str]:
    return {
        line.split("'")[1].split(":")[-1] for line in output.splitlines() if line.startswith("Running stage")
    }


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    dest = copy_checkout(tmp_path_factory.mktemp("integrity-e2e"))
    plan_and_commit(
        dest, ["competition_set=custom", f"competition_set.ids=[{COMP}]", "seed=one", "runner=local"]
    )
    _run(["dvc", "repro"], dest)
    return dest


def test_the_baseline_and_dummy_runs_are_clean(repo: Path) -> None:
    for agent in ("dummy", "baseline"):
        verdict = json.loads((repo / "integrity" / agent / COMP / "0" / "integrity.json").read_text())
        flagged = {c["check"]: c["evidence"] for c in verdict["checks"] if c["flagged"]}
        assert verdict["verdict"] == "clean", (agent, flagged)


def test_editing_the_settings_stales_only_the_integrity_stages(repo: Path) -> None:
    params = repo / "params.yaml"
    original = params.read_text()
    try:
        params.write_text(original.replace("max_validations: 100", "max_validations: 99"))
        assert _stale(repo) == {"integrity-dummy-s0", "integrity-baseline-s0"}
        entry = "  - pattern: example\\.org/answers\n    reason: a test entry\n"
        params.write_text(original.replace("  forbidden_resources:\n", "  forbidden_resources:\n" + entry, 1))
        assert _stale(repo) == {"integrity-dummy-s0", "integrity-baseline-s0"}
        # The verdicts are re-written (their checked_at moves), so the report reads them again; no agent runs.
        ran = _ran(_run(["dvc", "repro"], repo).stdout)
        assert ran == {"integrity-dummy-s0", "integrity-baseline-s0", "report"}
    finally:
        params.write_text(original)
        _run(["dvc", "repro"], repo)


def test_editing_a_check_stales_only_the_integrity_stages(repo: Path) -> None:
    checks = repo / "mlebench" / "integrity" / "checks.py"
    original = checks.read_text()
    try:
        checks.write_text(original + "\n# an edit to a check\n")
        assert _stale(repo) == {"integrity-dummy-s0", "integrity-baseline-s0"}
    finally:
        checks.write_text(original)
