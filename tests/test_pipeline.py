"""End to end: `dvc repro` of two embedded competitions in a temporary copy of the repository.

Covers: the whole chain fetch → prepare → selfcheck → run_agent → grade → report; lineage in every record;
a second `dvc repro` is a no-op; editing one agent's config makes only that agent's cells stale; editing a
grader makes only grading, the self-check and the report stale; `dvc push`, delete, `dvc pull`, and
`dvc repro` re-runs nothing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
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


def _run(args: list[str], cwd: Path, check: bool = True) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "MLEBENCH_ROOT"}
    env["PATH"] = f"{Path(sys.executable).parent}:{env.get('PATH', '')}"
    proc = subprocess.run(args, cwd=cwd, env=env, capture_output=True, text=True, timeout=1200)
    if check and proc.returncode != 0:
        raise AssertionError(
            f"{' '.join(args)} failed ({proc.returncode}):\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}"
        )
    return proc


def _stale(repo: Path) -> set[str]:
    out = json.loads(_run(["dvc", "status", "--json"], repo).stdout or "{}")
    return {
        name.split(":")[-1] + "@" + name.split("/")[1] if name.startswith("pipelines/") else name
        for name in out
    }


@pytest.fixture(scope="module")
def repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Copy the working tree (tracked and untracked-not-ignored files) to a git repo planned for 2 comps."""
    base = tmp_path_factory.mktemp("e2e")
    dest = base / "repo"
    files = (
        subprocess.run(
            ["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True, check=True
        )
        .stdout.decode()
        .split("\0")
    )
    for rel in filter(None, files):
        src = ROOT / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    _run(["git", "init", "-q"], dest)
    for remote in ("storage", "answers"):
        _run(["dvc", "remote", "modify", "--local", remote, "url", str(base / "remote" / remote)], dest)
    _run(
        [
            sys.executable,
            "-m",
            "mlebench.cli",
            "plan",
            "competition_set=custom",
            f"competition_set.ids=[{','.join(COMPS)}]",
            "seeds=[0,1]",
        ],
        dest,
    )
    _run(["git", "add", "-A"], dest)
    _run(["git", "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-qm", "e2e"], dest)
    _run(["dvc", "repro"], dest)
    return dest


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
    assert report["agents"]["dummy"]["groups"]["custom"]["complete_seeds"] == [0, 1]
    shown = _run(["dvc", "metrics", "show", "--json"], repo).stdout
    assert "any_medal_pct" in shown


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
        assert stale and all(s.startswith("run_agent-baseline") for s in stale), stale
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
