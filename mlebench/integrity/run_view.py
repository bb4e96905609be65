"""What a finished run left behind, read once for the integrity checks: its record, code, logs, submission.

A run folder (``runs/<agent>/<id>/<seed>/``) holds ``run.json``, ``submission.csv``, ``code/`` (what the agent
kept of its own code), ``logs/`` and ``agent_output.log`` (the agent's captured stdout and stderr), and
under ``egress`` or ``llm`` the proxy's ``proxy_access.log`` (written by the runner, not the agent). Text is
read with a size bound per file and undecodable bytes replaced, so a hostile run cannot exhaust memory or
crash the checks. Notebooks in ``code/`` are read as their code cells. Python comments are kept apart from
code (:attr:`SourceFile.code_lines`), so a URL named in a comment is not mistaken for a call.
"""

from __future__ import annotations

import io
import json
import tokenize
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mlebench.data.notebooks import notebook_code

MAX_FILE_BYTES = 8 * 1024 * 1024
"""Bytes read of any one file; the rest is not looked at (and the cut is recorded)."""
NETWORK_LOG = "proxy_access.log"
"""The per-cell egress proxy's access log (under ``egress`` and ``llm``), kept in the run folder."""
CODE_SUFFIXES = (".py", ".ipynb", ".sh", ".bash", ".r", ".jl", ".txt", ".cfg", ".toml", ".yaml", ".yml", "")
LOG_SUFFIXES = (".log", ".txt", ".out", ".err", ".jsonl", ".json", "")


@dataclass(frozen=True)
class SourceFile:
    """One text file of the run: its path relative to the run folder and its lines.

    ``code_lines`` are the lines with Python comments blanked (for ``.py`` and notebooks; the same lines for
    other files), numbered like ``lines``.
    """

    path: str
    lines: list[str]
    code_lines: list[str]

    @property
    def text(self) -> str:
        """The whole file."""
        return "\n".join(self.lines)

    @property
    def code(self) -> str:
        """The file without its comments."""
        return "\n".join(self.code_lines)


@dataclass(frozen=True)
class RunView:
    """A run folder as the checks see it."""

    run_dir: Path
    record: dict[str, Any]
    code: list[SourceFile]
    logs: list[SourceFile]
    submission_exists: bool
    truncated: list[str] = field(default_factory=list)
    network_log: list[SourceFile] = field(default_factory=list)

    @classmethod
    def load(cls, run_dir: Path) -> RunView:
        """Read ``run_dir``; a missing or unreadable ``run.json`` is an error naming the file."""
        from mlebench_spec.errors import DataError

        record_path = run_dir / "run.json"
        try:
            record = json.loads(record_path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as exc:
            raise DataError(f"{record_path}: cannot read the run record ({exc}); re-run the cell") from None
        truncated: list[str] = []
        code = [
            _read(p, run_dir, truncated, notebook=p.suffix == ".ipynb")
            for p in _files(run_dir / "code", CODE_SUFFIXES)
        ]
        logs = [_read(p, run_dir, truncated) for p in _files(run_dir / "logs", LOG_SUFFIXES)]
        for name in ("agent_output.log", "infra_error.log"):
            if (run_dir / name).is_file():
                logs.append(_read(run_dir / name, run_dir, truncated))
        network_log = (
            [_read(run_dir / NETWORK_LOG, run_dir, truncated)] if (run_dir / NETWORK_LOG).is_file() else []
        )
        submission = run_dir / "submission.csv"
        return cls(
            run_dir=run_dir,
            record=record,
            code=code,
            logs=logs,
            submission_exists=submission.is_file() and not submission.is_symlink(),
            truncated=truncated,
            network_log=network_log,
        )

    @property
    def files(self) -> list[SourceFile]:
        """Code then logs."""
        return [*self.code, *self.logs]


def _files(folder: Path, suffixes: tuple[str, ...]) -> list[Path]:
    if not folder.is_dir():
        return []
    return [
        p
        for p in sorted(folder.rglob("*"))
        if p.is_file() and not p.is_symlink() and p.suffix.lower() in suffixes
    ]


def _read(path: Path, run_dir: Path, truncated: list[str], notebook: bool = False) -> SourceFile:
    rel = path.relative_to(run_dir).as_posix()
    with path.open("rb") as fh:
        data = fh.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        truncated.append(rel)
        data = data[:MAX_FILE_BYTES]
    text = data.decode("utf-8", errors="replace")
    if notebook:
        text = notebook_code(text)
    lines = text.splitlines()
    python = notebook or path.suffix == ".py"
    return SourceFile(rel, lines, _without_comments(text, len(lines)) if python else lines)


def _without_comments(text: str, n_lines: int) -> list[str]:
    """Lines of Python source with comment tokens blanked; unparsable source keeps its lines."""
    lines = text.splitlines()
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text).readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return [_strip_hash(line) for line in lines]
    out = list(lines)
    for tok in tokens:
        if tok.type == tokenize.COMMENT:
            row, col = tok.start
            if row - 1 < len(out):
                out[row - 1] = out[row - 1][:col]
    return out[:n_lines] + [""] * (n_lines - len(out))


def _strip_hash(line: str) -> str:
    return "" if line.lstrip().startswith("#") else line
