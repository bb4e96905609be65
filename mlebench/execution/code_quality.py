"""What an agent's kept code is like: size, files, ruff findings per 1,000 lines, whether it says how to run.

Reported with every reproduction (:mod:`mlebench.execution.reproduce`) and summed per agent in the report;
never a gate. Ruff runs with ``--isolated`` (no configuration from the agent's code or this checkout) and a
fixed rule selection (:data:`RUFF_SELECT`), and the record names ruff's version, so two figures compare only
when both agree.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

RUFF_SELECT = "E4,E7,E9,F,B,W6"
"""Errors ruff's defaults check (syntax, imports, undefined names, statements) plus bugbear: likely bugs,
not style; line length and formatting are left out so the figure does not reward a formatter."""
CODE_SUFFIXES = (".py", ".ipynb", ".sh", ".bash", ".r", ".jl", ".js", ".ts", ".c", ".cc", ".cpp", ".java")
_MAX_READ_BYTES = 8 * 1024 * 1024
_RUFF_TIMEOUT_SECS = 120


def ruff_binary() -> str | None:
    """Return the ruff executable (the ``ruff`` package's, else one on PATH), or None."""
    try:
        from ruff.__main__ import find_ruff_bin  # the wheel ships its binary beside the package

        return str(find_ruff_bin())
    except (ImportError, FileNotFoundError):
        return shutil.which("ruff")


def code_quality(code_dir: Path, declared_by: str = "") -> dict[str, Any]:
    """Measure the code in ``code_dir`` (the run's kept ``code/``); ``declared_by`` says how it re-runs.

    Returns ``files`` (every file), ``code_files`` and ``lines`` (files with a code suffix, their lines),
    ``python_files`` and ``python_lines``, ``readme`` (a README in the folder's top level),
    ``says_how_to_run`` (a README, or a declared way to re-run it other than the default), and ``ruff``:
    ``{version, select, findings, per_kloc, rules}`` (the five most frequent rules), or ``{error}`` when
    ruff is missing or fails.
    """
    files = (
        [p for p in sorted(code_dir.rglob("*")) if p.is_file() and not p.is_symlink()]
        if code_dir.is_dir()
        else []
    )
    code = [p for p in files if p.suffix.lower() in CODE_SUFFIXES]
    python = [p for p in code if p.suffix.lower() == ".py"]
    readme = any(p.parent == code_dir and p.name.lower().startswith("readme") for p in files)
    out: dict[str, Any] = {
        "files": len(files),
        "code_files": len(code),
        "lines": sum(_lines(p) for p in code),
        "python_files": len(python),
        "python_lines": sum(_lines(p) for p in python),
        "readme": readme,
        "says_how_to_run": readme or declared_by in ("agent config", "code/reproduce.sh"),
    }
    out["ruff"] = _ruff(code_dir, out["python_lines"]) if code else {"findings": 0, "per_kloc": None}
    return out


def _lines(path: Path) -> int:
    with path.open("rb") as fh:
        return fh.read(_MAX_READ_BYTES).count(b"\n")


def _ruff(code_dir: Path, python_lines: int) -> dict[str, Any]:
    binary = ruff_binary()
    if binary is None:
        return {"error": "ruff is not installed here (it is a dependency of this package: pip install -e .)"}
    try:
        version = subprocess.run(
            [binary, "--version"], capture_output=True, text=True, timeout=30, check=True
        )
        found = subprocess.run(
            [
                binary,
                "check",
                "--isolated",
                "--no-cache",
                "--exit-zero",
                "--output-format",
                "json",
                "--select",
                RUFF_SELECT,
                ".",
            ],
            cwd=code_dir,
            capture_output=True,
            text=True,
            timeout=_RUFF_TIMEOUT_SECS,
            check=True,
        )
        findings = json.loads(found.stdout or "[]")
    except (OSError, subprocess.SubprocessError, json.JSONDecodeError) as exc:
        return {"error": f"ruff failed: {type(exc).__name__}: {exc}"}
    rules: dict[str, int] = {}
    for item in findings:
        code = str(item.get("code") or "syntax")
        rules[code] = rules.get(code, 0) + 1
    top = dict(sorted(rules.items(), key=lambda kv: (-kv[1], kv[0]))[:5])
    return {
        "version": version.stdout.strip().removeprefix("ruff "),
        "select": RUFF_SELECT,
        "findings": len(findings),
        "per_kloc": round(1000.0 * len(findings) / python_lines, 1) if python_lines else None,
        "rules": top,
    }


__all__ = ["RUFF_SELECT", "code_quality", "ruff_binary"]
