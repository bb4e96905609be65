"""MLE-bench v1's grading report format: one ``*grading_report.json`` per run group.

A report holds totals over its entries and ``competition_reports``, one entry per graded run, with
MLE-bench's fields in its order (:data:`ENTRY_FIELDS`); ours add ``status`` and ``reason`` after them, as
``mlebench grade`` writes them. MLE-bench's leaderboard reads these files: one per run group, which here is
one seed of one agent.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from graders.result import REPORT_FIELDS

ENTRY_FIELDS = ("competition_id", *REPORT_FIELDS, "created_at", "submission_path")
"""MLE-bench's ``CompetitionReport`` fields in its order (the graded ones from :mod:`graders.result`)."""
TOTALS = {
    "total_runs": None,
    "total_runs_with_submissions": "submission_exists",
    "total_valid_submissions": "valid_submission",
    "total_medals": "any_medal",
    "total_gold_medals": "gold_medal",
    "total_silver_medals": "silver_medal",
    "total_bronze_medals": "bronze_medal",
    "total_above_median": "above_median",
}
"""Each total and the entry flag it counts (``total_runs`` counts entries)."""


def entry(record: Mapping[str, Any], submission_path: str | None = None) -> dict[str, Any]:
    """One report entry from a grading record (or ``mlebench grade``'s fields), optionally re-pathed."""
    out = {key: record.get(key) for key in ENTRY_FIELDS}
    if submission_path is not None:
        out["submission_path"] = submission_path
    out.update(status=record.get("status", ""), reason=record.get("reason", ""))
    return out


def totals(entries: list[Mapping[str, Any]]) -> dict[str, int]:
    """Count the report's totals over its entries.

    >>> totals([{"submission_exists": True, "valid_submission": True, "any_medal": False,
    ...          "gold_medal": False, "silver_medal": False, "bronze_medal": False, "above_median": True}])
    ... # doctest: +NORMALIZE_WHITESPACE
    {'total_runs': 1, 'total_runs_with_submissions': 1, 'total_valid_submissions': 1, 'total_medals': 0,
     'total_gold_medals': 0, 'total_silver_medals': 0, 'total_bronze_medals': 0, 'total_above_median': 1}
    """
    return {
        name: len(entries) if flag is None else sum(bool(e.get(flag)) for e in entries)
        for name, flag in TOTALS.items()
    }


def grading_report(entries: list[dict[str, Any]]) -> dict[str, Any]:
    """Build a whole v1 grading report: totals, then the entries in the order given."""
    return {**totals(entries), "competition_reports": entries}
