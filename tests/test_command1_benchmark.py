"""The README command 1 benchmark's parsing: which command it runs and how it splits the time."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("command1_benchmark", ROOT / "benchmarks" / "command1.py")
command1 = importlib.util.module_from_spec(_spec)
sys.modules["command1_benchmark"] = command1
_spec.loader.exec_module(command1)


def test_it_runs_the_readmes_first_command_which_ends_in_dvc_repro():
    command = command1.readme_command(ROOT / "README.md")
    assert command.startswith("python3 -m venv .venv")
    assert command.endswith("&& dvc repro")
    assert "pytest" not in command


def test_a_readme_without_one_command_line_is_refused(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_text("# x\n\n```bash\n# comment\nmake a\nmake b\n```\n")
    with pytest.raises(SystemExit, match="one command line, found 2"):
        command1.readme_command(readme)
    readme.write_text("# x\nno blocks\n")
    with pytest.raises(SystemExit, match="no ```bash block"):
        command1.readme_command(readme)


@pytest.mark.parametrize(
    ("stage", "kind"),
    [
        ("run_agent-baseline-s0", "run_agent (baseline)"),
        ("grade-my-agent.v2-s12", "grade (my-agent.v2)"),
        ("integrity-dummy-s1", "integrity (dummy)"),
        ("prepare", "prepare"),
        ("fetch_kernels", "fetch_kernels"),
        ("report", "report"),
    ],
)
def test_stage_kinds(stage, kind):
    assert command1.stage_kind(stage) == kind


def test_summary_splits_setup_from_stages_and_sums_by_kind():
    lines = [
        (0.0, "Collecting things"),
        (60.0, "Running stage 'pipelines/a/dvc.yaml:prepare':"),
        (62.0, "> python -m stages.prepare --competition a"),
        (63.0, "Updating lock file 'pipelines/a/dvc.lock'"),
        (64.0, "Running stage 'pipelines/a/baseline-s0/dvc.yaml:run_agent-baseline-s0':"),
        (74.0, "Running stage 'pipelines/a/baseline-s1/dvc.yaml:run_agent-baseline-s1':"),
        (80.0, "Running stage 'dvc.yaml:report':"),
    ]
    s = command1.summarize(0.0, 81.0, lines)
    assert s["setup"] == 60.0 and s["repro"] == 21.0 and s["stages"] == 4
    assert s["kinds"] == {"prepare": [4.0], "run_agent (baseline)": [10.0, 6.0], "report": [1.0]}


def test_summary_splits_each_stage_at_its_commands_last_line_and_times_the_gaps_between_runs():
    lines = [
        (0.0, "Running stage 'pipelines/a/dvc.yaml:prepare':"),
        (0.1, "> python -m stages.prepare --competition a"),
        (3.0, "Updating lock file 'pipelines/a/dvc.lock'"),
        (4.0, "Running stage 'pipelines/a/dummy-s0/dvc.yaml:run_agent-dummy-s0':"),
        (4.1, "> python -m stages.run_agent --competition a --agent dummy --seed 0"),
        (6.0, "dummy/a/seed 0: ok in 1.2 s (docker runner)"),
        (7.0, "Generating lock file 'pipelines/a/dummy-s0/dvc.lock'"),
        (7.0, "Updating lock file 'pipelines/a/dummy-s0/dvc.lock'"),
        (7.1, ""),
        (7.5, "Running stage 'pipelines/a/dummy-s0/dvc.yaml:grade-dummy-s0':"),
        (9.0, "dummy/a/seed 0: ok score=0.5 (grading.mode v1)"),
        (10.0, "Running stage 'pipelines/a/dummy-s1/dvc.yaml:run_agent-dummy-s1':"),
        (12.0, "dummy/a/seed 1: ok in 1.1 s (docker runner)"),
    ]
    s = command1.summarize(0.0, 13.0, lines)
    assert s["after"] == {"prepare": [0.0], "run_agent (dummy)": [1.5, 1.0], "grade (dummy)": [1.0]}
    assert s["gaps"] == [4.0]  # from seed 0's "ok in" line to seed 1's stage start
