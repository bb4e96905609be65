"""A cell's reproduction (process evaluation): its typed record, its verdict, the report's process section.

The reproduce stage re-runs the code an agent kept, by the command it declared, in a fresh container (or
workspace) of the same image and hardware profile, grades the submission that code writes as the original
was graded, and writes one :class:`ReproductionRecord`
(``reproductions/<agent>/<id>/<seed>/reproduction.json``).

Verdicts (:func:`judge`), one per cell:

- ``reproduced``: the re-run's score lies within the tolerance of the original's, per metric direction
  (:class:`mlebench_spec.params.Tolerance`);
- ``differs``: the re-run wrote a valid submission whose score lies outside it (or the original had none):
  the submission did not come from this code as declared;
- ``failed``: the re-run ended without a gradable submission (``no_submission``, ``agent_timeout``,
  ``agent_error``, ``invalid_submission``, ...: its ``status``, the runner's statuses);
- ``not_declared``: the agent declared no way to re-run its code, and no default applies.
"""

from __future__ import annotations

import json
import statistics
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from mlebench_spec.errors import DataError

VERDICTS = ("reproduced", "differs", "failed", "not_declared")
RECORD = "reproduction.json"
_FLOOR = 1e-9


def judge(
    declared: bool,
    status: str,
    original: float | None,
    reproduced: float | None,
    lower_is_better: bool,
    worse: float,
    better: float,
    *,
    compare: bool = True,
) -> tuple[str, float | None]:
    """Return the verdict and ``delta`` (reproduced − original score; None unless both exist).

    ``compare`` False (a competition graded on the re-run, on other inputs than the run's): a re-run that
    wrote a valid submission is ``reproduced``, with no delta.

    ``worse`` and ``better`` bound the gap relative to ``max(|original|, 1e-9)``, in the metric's direction.

    >>> judge(True, "ok", 0.80, 0.795, False, 0.01, 0.01)
    ('reproduced', -0.005)
    >>> judge(True, "ok", 0.80, 0.60, False, 0.01, 0.01)
    ('differs', -0.2)
    >>> judge(True, "ok", 2.0, 1.5, True, 0.01, 0.5)  # lower is better: 25% better, within `better`
    ('reproduced', -0.5)
    >>> judge(True, "agent_timeout", 0.8, None, False, 0.01, 0.01)
    ('failed', None)
    >>> judge(False, "", 0.8, None, False, 0.01, 0.01)
    ('not_declared', None)
    >>> judge(True, "ok", None, 0.42, False, 0.01, 0.01, compare=False)
    ('reproduced', None)
    """
    if not declared:
        return "not_declared", None
    if reproduced is None:
        return "failed", None
    if not compare:
        return "reproduced", None
    if original is None:
        return "differs", None
    delta = round(reproduced - original, 10)
    worse_by = delta if lower_is_better else -delta  # > 0: the re-run scored worse than the original
    scale = max(abs(original), _FLOOR)
    if worse_by > worse * scale + _FLOOR or -worse_by > better * scale + _FLOOR:
        return "differs", delta
    return "reproduced", delta


@dataclass(frozen=True)
class ReproductionRecord:
    """One cell's reproduction, as ``reproduction.json`` holds it.

    ``verdict`` (:data:`VERDICTS`); ``status``: the re-run's cell status as its grading record says
    (``ok``, ``no_submission``, ``agent_timeout``, ...; empty when nothing ran); ``score`` (the re-run's,
    null without a valid submission), ``original_score``, ``delta`` (score − original_score), ``seconds``
    (the re-run's wall-clock time) beside ``run_seconds`` (the original run's) and ``time_limit_secs`` (the
    re-run's limit); ``command`` (the argv run in ``$CODE_DIR``) and ``declared_by`` (``agent config``,
    ``code/reproduce.sh``, ``default: the one *.py in code/``, or empty); ``tolerance`` used;
    ``is_lower_better``; ``identical`` (the re-run wrote byte for byte the original submission; null when
    it wrote none); ``reason`` (why it failed or was not declared); ``runner``; ``lineage``: of the
    ``original`` (the run's submission, code and image) and of the ``reproduction`` (its grading record's
    lineage: submission, image, config, grader); ``code_quality`` (:mod:`mlebench.execution.code_quality`),
    reported, never gating; ``created_at``.
    ``inputs`` (:func:`mlebench.execution.reproduce_inputs.stage_inputs`): what the re-run got of the kept
    ``code/``: ``declared`` (the agent's ``reproduce_inputs`` globs), ``unmatched`` (globs that matched no
    kept file), ``given`` (``[{path, bytes, declared}]``: source files, and declared inputs) and
    ``left_out`` (``[{path, bytes, reason}]``); a ``failed`` re-run that had files left out says so in
    ``reason``. ``stashed`` (:func:`mlebench.integrity.stash.stashed_files` over the kept ``code/``, declared
    inputs included): ``{files, bytes, truncated, matches: [{path, test, column, share, chance}]}``; a
    match is a kept file whose values reproduce the submission's predictions, and the cell's reproduction
    check flags it whatever the verdict (:func:`mlebench.integrity.verdict.reproduction_check`). Both are
    empty in records written before they existed.
    """

    competition_id: str
    agent: str
    seed: int
    verdict: str
    status: str
    score: float | None
    original_score: float | None
    delta: float | None
    seconds: float | None
    run_seconds: float | None
    time_limit_secs: int
    command: list[str]
    declared_by: str
    tolerance: dict
    is_lower_better: bool | None
    reason: str
    runner: str
    created_at: str
    lineage: dict = field(default_factory=dict)
    code_quality: dict = field(default_factory=dict)
    identical: bool | None = None
    inputs: dict = field(default_factory=dict)
    stashed: dict = field(default_factory=dict)

    @property
    def stash_matches(self) -> list[dict[str, Any]]:
        """The kept files whose values reproduce the submission (``stashed.matches``)."""
        return list((self.stashed or {}).get("matches") or [])

    def __post_init__(self) -> None:
        if self.verdict not in VERDICTS:
            raise ValueError(f"reproduction verdict {self.verdict!r} is not one of {', '.join(VERDICTS)}")

    def to_json(self) -> dict[str, Any]:
        """Return the record as written."""
        return asdict(self)

    def summary(self) -> dict[str, Any]:
        """Return what a view of the cell carries: ``{verdict, status, score, delta, seconds}``."""
        return {k: getattr(self, k) for k in ("verdict", "status", "score", "delta", "seconds")}

    def write(self, folder: Path) -> None:
        """Write ``folder/reproduction.json`` atomically: the one place reproduction records are written."""
        from mlebench_spec.files import write_json

        write_json(folder / RECORD, self.to_json())

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> ReproductionRecord:
        """Read a record written by :meth:`to_json`."""
        return cls(**dict(data))


def load_reproduction(folder: Path) -> ReproductionRecord | None:
    """Read a cell's ``reproduction.json`` (None when the cell was not reproduced); garbage is a DataError."""
    path = folder / RECORD
    if not path.is_file():
        return None
    try:
        return ReproductionRecord.from_json(json.loads(path.read_text(encoding="utf-8")))
    except (json.JSONDecodeError, TypeError, ValueError, UnicodeDecodeError) as exc:
        raise DataError(f"{path}: not a reproduction record ({type(exc).__name__}: {exc})") from None


def counted_reproduced(
    record: Mapping[str, Any], reproduction: Mapping[str, Any] | None
) -> Mapping[str, Any]:
    """Return a headline record under ``reproduce.headline: reproduced``: medals only for reproduced cells.

    A cell whose kept files hold its submission's answers (``stashed.matches``) is not reproduced from source,
    whatever its verdict.

    >>> rec = {"any_medal": True, "gold_medal": True, "silver_medal": False, "bronze_medal": False}
    >>> counted_reproduced(rec, {"verdict": "reproduced"})["any_medal"]
    True
    >>> counted_reproduced(rec, {"verdict": "differs"})["any_medal"]
    False
    >>> counted_reproduced(rec, None)["gold_medal"]
    False
    >>> stash = {"matches": [{"path": "code/a.pkl"}]}
    >>> counted_reproduced(rec, {"verdict": "reproduced", "stashed": stash})["any_medal"]
    False
    """
    stashed = ((reproduction or {}).get("stashed") or {}).get("matches")
    if reproduction is not None and reproduction.get("verdict") == "reproduced" and not stashed:
        return record
    return {**record, **dict.fromkeys(("any_medal", "gold_medal", "silver_medal", "bronze_medal"), False)}


def process_section(
    reproductions: Mapping[tuple[str, str, int], Mapping[str, Any]], agents: Iterable[str]
) -> dict[str, Any]:
    """Return the report's ``process`` section: per agent, reproduction verdicts, deltas, cost, code quality.

    ``reproductions`` maps ``(agent, competition, seed)`` to a reproduction record (as JSON). Per agent:
    ``cells`` reproduced-or-tried, ``verdicts`` counted, ``share_reproduced`` (reproduced / cells whose
    reproduction was declared, in %; null when none), ``deltas`` (each cell's), ``delta_abs_max``,
    ``seconds`` and ``run_seconds`` summed (the cost: re-run time against run time) and ``code_quality``:
    median lines and files, ruff findings per 1,000 Python lines (pooled), the ruff version(s), and how
    many cells' code says how to run it. Each of ``cells`` lists what its re-run was ``given``, what was
    ``left_out`` (with why), the kept files that hold its answers (``stashed``), its ``reason`` and a
    one-line ``note`` of these.
    """
    out: dict[str, Any] = {"agents": {}, "cells": []}
    for agent in agents:
        mine = {k: r for k, r in sorted(reproductions.items()) if k[0] == agent}
        if not mine:
            continue
        verdicts = Counter(r["verdict"] for r in mine.values())
        declared = sum(n for v, n in verdicts.items() if v != "not_declared")
        deltas = [r["delta"] for r in mine.values() if r.get("delta") is not None]
        quality = [r.get("code_quality") or {} for r in mine.values()]
        ruff = [q.get("ruff") or {} for q in quality]
        findings = sum(int(r.get("findings") or 0) for r in ruff if r.get("version"))
        py_lines = sum(
            int(q.get("python_lines") or 0) for q, r in zip(quality, ruff, strict=True) if r.get("version")
        )
        out["agents"][agent] = {
            "cells": len(mine),
            "verdicts": {v: verdicts.get(v, 0) for v in VERDICTS},
            "identical": sum(1 for r in mine.values() if r.get("identical")),
            "share_reproduced": round(100.0 * verdicts.get("reproduced", 0) / declared, 1)
            if declared
            else None,
            "deltas": deltas,
            "delta_abs_max": max((abs(d) for d in deltas), default=None),
            "seconds": round(sum(r.get("seconds") or 0.0 for r in mine.values()), 1),
            "run_seconds": round(sum(r.get("run_seconds") or 0.0 for r in mine.values()), 1),
            "code_quality": {
                "median_lines": _median([q.get("lines") for q in quality]),
                "median_files": _median([q.get("files") for q in quality]),
                "ruff_findings_per_kloc": round(1000.0 * findings / py_lines, 1) if py_lines else None,
                "ruff_versions": sorted({str(r["version"]) for r in ruff if r.get("version")}),
                "says_how_to_run": sum(1 for q in quality if q.get("says_how_to_run")),
                "documented": sum(1 for q in quality if q.get("readme")),
            },
        }
        out["cells"] += [
            {
                "agent": k[0],
                "competition_id": k[1],
                "seed": k[2],
                "verdict": r["verdict"],
                "status": r.get("status", ""),
                "original_score": r.get("original_score"),
                "score": r.get("score"),
                "delta": r.get("delta"),
                "identical": r.get("identical"),
                "seconds": r.get("seconds"),
                "run_seconds": r.get("run_seconds"),
                "declared_by": r.get("declared_by", ""),
                "reason": r.get("reason", ""),
                "given": [e["path"] for e in (r.get("inputs") or {}).get("given") or []],
                "left_out": [
                    f"{e['path']} ({e['reason']})" for e in (r.get("inputs") or {}).get("left_out") or []
                ],
                "stashed": [m["path"] for m in (r.get("stashed") or {}).get("matches") or []],
                "note": _note(r),
            }
            for k, r in mine.items()
        ]
    return out


def _note(record: Mapping[str, Any]) -> str:
    """Return one line on what the re-run got and why it failed or was flagged (the report's cell note).

    >>> _note({"inputs": {"given": [{"path": "code/a.py"}], "left_out": [{"path": "code/m.pkl",
    ...        "reason": "a pickle"}]}, "stashed": {"matches": [{"path": "code/m.pkl"}]}})
    'given 1 file; left out code/m.pkl (a pickle); answers kept in code/m.pkl'
    """
    inputs = record.get("inputs") or {}
    parts = []
    if inputs:
        given = inputs.get("given") or []
        declared = sum(1 for e in given if e.get("declared"))
        parts.append(
            f"given {len(given)} file{'s' if len(given) != 1 else ''}"
            + (f" ({declared} declared)" if declared else "")
        )
    left = inputs.get("left_out") or []
    if left:
        shown = ", ".join(f"{e['path']} ({e['reason']})" for e in left[:5])
        parts.append(f"left out {shown}" + (f" and {len(left) - 5} more" if len(left) > 5 else ""))
    stashed = [m["path"] for m in (record.get("stashed") or {}).get("matches") or []]
    if stashed:
        parts.append(f"answers kept in {', '.join(stashed)}")
    if record.get("verdict") == "failed" and record.get("status"):
        parts.append(f"re-run {record['status']}")
    return "; ".join(parts)


def _median(values: list[Any]) -> float | None:
    numbers = [float(v) for v in values if v is not None]
    return statistics.median(numbers) if numbers else None


__all__ = [
    "RECORD",
    "VERDICTS",
    "ReproductionRecord",
    "counted_reproduced",
    "judge",
    "load_reproduction",
    "process_section",
]
