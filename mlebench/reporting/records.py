"""The grading record: one JSON file per cell, MLE-bench's report fields plus status and lineage.

Fields (MLE-bench's ``CompetitionReport``, in its order): ``competition_id``, ``score`` (rounded to 5
decimals; null when there is no valid submission), ``gold_threshold``, ``silver_threshold``,
``bronze_threshold``, ``median_threshold``, ``any_medal``, ``gold_medal``, ``silver_medal``, ``bronze_medal``,
``above_median`` (strict), ``submission_exists``, ``valid_submission``, ``is_lower_better``, ``created_at``
(UTC, ISO 8601), ``submission_path`` (relative to the repository).

Ours on top:
- ``status``: exactly one of ``ok``, ``invalid_submission``, ``no_submission``, ``agent_timeout``,
  ``agent_error``, ``infra_error``, ``grader_error``. Agent and infrastructure outcomes take precedence
  over the submission's: a timed-out agent whose partial submission is valid is ``agent_timeout`` and
  its score and medals still count, as MLE-bench grades whatever submission exists.
- ``reason``: why the submission is invalid, or what failed; ``traceback`` for a ``grader_error``.
- ``agent``, ``seed``, ``hardware`` (the profile), ``runner``, ``competition_version``.
- ``lineage``: sha256 of the public split, the private answers, the submission, the agent folder, the
  resolved cell config, the grader code (``graders/``) and the competition folder's declaration and
  leaderboard; the git revision when available.
- ``timings``: agent start/finish and seconds (from ``run.json``), grading seconds.
"""

from __future__ import annotations

import json
import subprocess
import time
import traceback
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from mlebench.spec.declarations import Competition
from mlebench.spec.hashing import sha256_file, sha256_json, sha256_tree

STATUSES = (
    "ok",
    "invalid_submission",
    "no_submission",
    "agent_timeout",
    "agent_error",
    "infra_error",
    "grader_error",
)
_AGENT_FAILURES = ("agent_timeout", "agent_error", "infra_error")


def grade_cell(
    comp: Competition, agent: str, seed: int, run: Path, public: Path, private: Path, root: Path
) -> dict[str, Any]:
    """Grade one cell's submission and assemble its full record (never raises for a bad submission)."""
    from graders.grade import grade

    run_info = _read_run(run)
    submission = run / "submission.csv"
    record: dict[str, Any] = {"competition_id": comp.id}
    t0 = time.monotonic()
    try:
        result = grade(comp, submission, private)
    except Exception:  # noqa: BLE001 - a grader bug must become a recorded grader_error, not a lost cell
        record.update(_empty_result(submission, root))
        record.update(
            status="grader_error", reason="the grader raised an exception", traceback=traceback.format_exc()
        )
    else:
        record.update(_result_fields(result, submission, root))
        run_status = run_info.get("status", "infra_error")
        if run_status in _AGENT_FAILURES:
            record["status"] = run_status
            record["reason"] = _agent_reason(run_info, result.reason)
        else:
            record["status"], record["reason"] = result.status, result.reason
    record.update(
        agent=agent,
        seed=seed,
        hardware=run_info.get("hardware", {}),
        runner=run_info.get("runner", "unknown"),
        competition_version=comp.version,
        lineage={
            "public_sha256": sha256_tree(public),
            "private_sha256": sha256_tree(private),
            "submission_sha256": sha256_file(submission)
            if submission.is_file() and not submission.is_symlink()
            else None,
            "agent_sha256": run_info.get("agent_sha256"),
            "config_sha256": run_info.get("config_sha256"),
            "grader_sha256": sha256_tree(root / "graders"),
            "competition_sha256": _competition_hash(comp, root),
            "public_seen_by_agent_sha256": run_info.get("public_sha256"),
            "git_revision": _git_revision(root),
        },
        timings={
            "agent_started_at": run_info.get("started_at"),
            "agent_finished_at": run_info.get("finished_at"),
            "agent_seconds": run_info.get("agent_seconds"),
            "grade_seconds": round(time.monotonic() - t0, 3),
        },
    )
    return record


def write_record(record: dict[str, Any], path: Path) -> None:
    """Write a record atomically (a kill mid-write leaves the old file or none, never half a file)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(record, indent=2, allow_nan=True) + "\n", encoding="utf-8")
    tmp.replace(path)


def _result_fields(result: Any, submission: Path, root: Path) -> dict[str, Any]:
    fields = result.to_dict()
    for key in ("status", "reason", "grade_seconds"):  # the record sets these from the cell as a whole
        fields.pop(key)
    return {**fields, "created_at": _now(), "submission_path": _rel(submission, root)}


def _empty_result(submission: Path, root: Path) -> dict[str, Any]:
    return {
        "score": None,
        "gold_threshold": None,
        "silver_threshold": None,
        "bronze_threshold": None,
        "median_threshold": None,
        "any_medal": False,
        "gold_medal": False,
        "silver_medal": False,
        "bronze_medal": False,
        "above_median": False,
        "submission_exists": submission.is_file(),
        "valid_submission": False,
        "is_lower_better": None,
        "created_at": _now(),
        "submission_path": _rel(submission, root),
    }


def _read_run(run: Path) -> dict[str, Any]:
    try:
        return json.loads((run / "run.json").read_text(encoding="utf-8"))
    except (FileNotFoundError, json.JSONDecodeError):
        return {"status": "infra_error", "reason": f"{run / 'run.json'} is missing or unreadable"}


def _agent_reason(run_info: dict[str, Any], submission_reason: str) -> str:
    status = run_info.get("status")
    if status == "agent_timeout":
        text = f"agent killed at the time limit of {run_info.get('time_limit_secs')} s"
    elif status == "agent_error":
        text = f"agent exited with code {run_info.get('exit_code')}"
    else:
        text = run_info.get("reason", "infrastructure failure")
    return f"{text}; submission: {submission_reason}" if submission_reason else text


def _competition_hash(comp: Competition, root: Path) -> str:
    folder = root / "competitions" / comp.id
    parts = {
        name: sha256_file(folder / name)
        for name in ("competition.yaml", comp.leaderboard)
        if (folder / name).is_file()
    }
    return sha256_json(parts)


def _git_revision(root: Path) -> str | None:
    try:
        out = subprocess.run(
            ["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return out.stdout.strip() or None


def _rel(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root.resolve()).as_posix()
    except ValueError:
        return str(path)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")
