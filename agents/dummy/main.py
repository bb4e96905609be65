"""Dummy agent: copy the public sample submission and report what the environment looks like.

It trains nothing. Its purpose is to smoke-test the agent contract end to end: the environment
variables reach the agent, the public data is readable, the submission/code/logs directories are
writable, and the configured options (``AGENT_KWARGS``) arrive intact.
"""

from __future__ import annotations

import json
import os
import platform
import shutil
import sys
import time
from pathlib import Path

_CONTRACT_VARS = (
    "COMPETITION_ID",
    "DATA_DIR",
    "SUBMISSION_DIR",
    "CODE_DIR",
    "LOGS_DIR",
    "SEED",
    "TIME_LIMIT_SECS",
    "HARDWARE_CPUS",
    "HARDWARE_MEMORY",
    "AGENT_KWARGS",
)
# Paths the reference harness uses inside its container; we only report whether they exist.
_REFERENCE_DIRS = ("/home/data", "/home/submission", "/home/code", "/home/logs", "/home/agent", "/private")


def _required_dir(name: str) -> Path:
    value = os.environ.get(name)
    if not value:
        raise SystemExit(f"dummy agent: environment variable {name} is not set (the runner must set it)")
    return Path(value)


def main() -> int:
    """Copy ``sample_submission.csv`` to ``SUBMISSION_DIR/submission.csv`` and log the environment."""
    data_dir = _required_dir("DATA_DIR")
    submission_dir = _required_dir("SUBMISSION_DIR")
    logs_dir = _required_dir("LOGS_DIR")
    code_dir = _required_dir("CODE_DIR")
    for folder in (submission_dir, logs_dir, code_dir):
        folder.mkdir(parents=True, exist_ok=True)

    lines: list[str] = [f"dummy agent started {time.strftime('%Y-%m-%dT%H:%M:%S')}"]
    lines.append(f"python {sys.version.split()[0]} on {platform.platform()}; cwd {os.getcwd()}")
    lines.append(f"running as uid {os.getuid() if hasattr(os, 'getuid') else 'n/a'}")
    for var in _CONTRACT_VARS:
        lines.append(f"env {var}={os.environ.get(var, '<unset>')}")
    raw_kwargs = os.environ.get("AGENT_KWARGS", "{}") or "{}"
    try:
        kwargs = json.loads(raw_kwargs)
        lines.append(f"AGENT_KWARGS parsed: {json.dumps(kwargs, sort_keys=True)}")
    except json.JSONDecodeError as err:
        lines.append(f"AGENT_KWARGS is not valid JSON ({err}); raw value kept above")
    for folder in _REFERENCE_DIRS:
        lines.append(f"reference dir {folder}: {'exists' if os.path.isdir(folder) else 'absent'}")
    listing = sorted(p.name + ("/" if p.is_dir() else "") for p in data_dir.iterdir())
    lines.append(f"DATA_DIR contains: {', '.join(listing)}")

    sample = data_dir / "sample_submission.csv"
    if not sample.is_file():
        lines.append(f"no {sample}; nothing to copy")
        _write_log(logs_dir, lines)
        return 1
    target = submission_dir / "submission.csv"
    shutil.copyfile(sample, target)
    lines.append(f"copied {sample} -> {target}")
    if Path(__file__).resolve() != (code_dir / "main.py").resolve():  # re-run from CODE_DIR: already there
        shutil.copyfile(Path(__file__), code_dir / "main.py")
        lines.append(f"saved own source to {code_dir / 'main.py'}")
    _write_log(logs_dir, lines)
    return 0


def _write_log(logs_dir: Path, lines: list[str]) -> None:
    text = "\n".join(lines) + "\n"
    (logs_dir / "agent.log").write_text(text, encoding="utf-8")
    sys.stdout.write(text)


if __name__ == "__main__":
    raise SystemExit(main())
