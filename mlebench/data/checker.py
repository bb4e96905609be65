"""Check every competition folder at once, reporting every problem.

:func:`check_all` never stops at the first problem: it walks every ``competitions/*/`` folder and returns
one :class:`Problem` per issue, each naming the file (and key) at fault. A folder is checked for:

- ``competition.yaml`` parses against the strict schema, and its ``id`` is the folder's name;
- ``metric.name`` is in the graders registry and ``metric.args`` fit the metric's function;
- every packaged source file has a recorded sha256;
- the description file exists and is not empty;
- ``prepare.py``, when present, imports and defines ``prepare(raw, public, private, comp)``, and the
  declaration has no ``prepare:`` block (the generic prepare's) beside it;
- the leaderboard file exists, has a numeric ``score`` column and is ordered best first for the
  metric's direction.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pandas as pd

from mlebench.data.prepare import load_prepare_function
from mlebench_spec.declarations import Competition, GeneratedSource, PackageSource, parse_declaration
from mlebench_spec.errors import ConfigError
from mlebench_spec.paths import competitions_dir

__all__ = ["Problem", "check_all", "check_folder"]


@dataclass(frozen=True)
class Problem:
    """One thing wrong: ``where`` is a file path (or folder), ``message`` says what and how to fix it."""

    where: str
    message: str

    def __str__(self) -> str:
        return f"{self.where}: {self.message}"


def check_all(root: Path | None = None) -> list[Problem]:
    """Every problem in every ``competitions/*/`` folder under ``root`` (default: the repository root)."""
    base = competitions_dir(root)
    if not base.is_dir():
        return [Problem(str(base), "the competitions folder does not exist")]
    registry, problems = _registry()
    for folder in sorted(p for p in base.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))):
        problems.extend(check_folder(folder, registry))
    return problems


def check_folder(folder: Path, registry: Any = None) -> list[Problem]:
    """Every problem with one folder; ``registry`` is ``graders.registry``, or None to skip metric checks."""
    problems: list[Problem] = []
    declaration = folder / "competition.yaml"
    comp: Competition | None = None
    if not declaration.is_file():
        problems.append(Problem(str(folder), "no competition.yaml in this competition folder"))
    else:
        try:
            comp = parse_declaration(declaration)
        except ConfigError as exc:
            problems.extend(_split_message(declaration, str(exc)))
    if comp is not None:
        if registry is not None:
            problems.extend(_check_metric(declaration, comp, registry))
        problems.extend(_check_checksums(declaration, comp))
    problems.extend(_check_description(folder, comp))
    script = folder / "prepare.py"
    if script.is_file():
        try:
            load_prepare_function(script)
        except ConfigError as exc:
            problems.extend(_split_message(script, str(exc)))
    if comp is not None and script.is_file() and comp.prepare is not None:
        problems.append(Problem(str(declaration), "declares a prepare: block and has prepare.py; keep one"))
    has_leaderboard = comp is not None and (comp.medals is None or (folder / comp.leaderboard).is_file())
    if comp is not None and registry is not None and has_leaderboard:
        problems.extend(_check_leaderboard(folder / comp.leaderboard, comp, registry))
    return problems


def _registry() -> tuple[Any, list[Problem]]:
    try:
        from graders import registry
    except ImportError as exc:
        return None, [
            Problem(
                "graders/registry.py",
                f"cannot import the metrics registry ({exc}); metrics and leaderboards were not checked",
            )
        ]
    return registry, []


def _check_metric(declaration: Path, comp: Competition, registry: Any) -> list[Problem]:
    try:
        registry.get_metric(comp.metric.name)
    except KeyError as exc:
        return [Problem(str(declaration), f"metric.name: {exc.args[0]}")]
    problems = [
        Problem(str(declaration), f"metric.args.{key}: column {name!r} is not a submission or answer column")
        for key, name in _column_args(comp.metric.args)
        if name not in comp.submission.answers_layout
    ]
    arg_problems = getattr(registry, "metric_arg_problems", None)
    if arg_problems is None:
        return problems
    return problems + [
        Problem(str(declaration), f"metric.args: {text}")
        for text in arg_problems(comp.metric.name, comp.metric.args)
    ]


def _column_args(args: Mapping[str, Any]) -> list[tuple[str, str]]:
    """Return the (key, column) pairs of metric arguments that name columns (``*_column``, ``columns``)."""
    pairs = []
    for key, value in args.items():
        if key.endswith("_column") and isinstance(value, str):
            pairs.append((key, value))
        elif key == "columns" and isinstance(value, list):
            pairs += [(key, str(v)) for v in value]
    return pairs


def _check_checksums(declaration: Path, comp: Competition) -> list[Problem]:
    if not isinstance(comp.source, (PackageSource, GeneratedSource)):
        return []
    return [
        Problem(
            str(declaration), f"source.files[{k}].sha256 is missing for {item.path!r}; record the file's hash"
        )
        for k, item in enumerate(comp.source.files)
        if not item.sha256
    ]


def _check_description(folder: Path, comp: Competition | None) -> list[Problem]:
    path = folder / (comp.description if comp else "description.md")
    if not path.is_file():
        return [Problem(str(path), "the description file is missing (agents read it verbatim)")]
    if not path.read_text(encoding="utf-8").strip():
        return [Problem(str(path), "the description file is empty")]
    return []


def _check_leaderboard(path: Path, comp: Competition, registry: Any) -> list[Problem]:
    if not path.is_file():
        return [Problem(str(path), f"the leaderboard file is missing (leaderboard: {comp.leaderboard!r})")]
    try:
        board = pd.read_csv(path)
    except (ValueError, pd.errors.ParserError) as exc:
        return [Problem(str(path), f"not a readable CSV: {exc}")]
    if "score" not in board.columns:
        return [Problem(str(path), f"no 'score' column (columns: {', '.join(map(str, board.columns))})")]
    scores = pd.to_numeric(board["score"], errors="coerce")
    bad = board.index[scores.isna()].tolist()
    if bad:
        return [
            Problem(
                str(path),
                f"score is missing or not a number in {len(bad)} row(s), first at data row {bad[0] + 1}",
            )
        ]
    if len(scores) == 0:
        return [Problem(str(path), "the leaderboard has no rows")]
    try:
        higher = registry.get_metric(comp.metric.name).higher_is_better
    except KeyError:
        return []  # already reported against metric.name
    steps = scores.diff().iloc[1:]
    wrong = steps[steps > 0] if higher else steps[steps < 0]
    if not wrong.empty:
        row = int(wrong.index[0])
        order = "descending (higher is better)" if higher else "ascending (lower is better)"
        return [
            Problem(
                str(path),
                f"scores must be sorted best first, {order} for metric {comp.metric.name!r}; "
                f"data row {row + 1} ({scores[row]}) comes after {scores[row - 1]}. Is the metric right?",
            )
        ]
    return []


def _split_message(path: Path, text: str) -> list[Problem]:
    prefix = f"{path}: "
    return [Problem(str(path), line.removeprefix(prefix)) for line in text.splitlines() if line.strip()]
