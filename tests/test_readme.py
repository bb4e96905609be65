"""The README starts with the two fresh-machine commands, and CI runs the second one verbatim."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _commands() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)```", text, flags=re.S)
    return [line for block in blocks[:2] for line in block.splitlines() if line and not line.startswith("#")]


def test_readme_has_two_setup_commands_main_job_first() -> None:
    main, tests = _commands()
    assert main.endswith("dvc repro")
    assert "pytest" in tests


def test_ci_runs_the_readme_test_command() -> None:
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert _commands()[1] in ci.splitlines()
