"""MLE-bench v1's grading functions (``mlebench.grade``): grade a CSV, a JSONL of submissions, validate one.

Part of the v1 face. :func:`grade_csv` grades the file itself through this project's one grading path,
:func:`graders.grade.grade` (v1 mode), against the competition's ``private_dir``, exactly as
``mlebench grade-sample`` does, and returns v1's :class:`CompetitionReport`. As in v1, a path that is not a
``.csv`` file counts as no submission, and a submission that cannot be scored has score None.
"""

from __future__ import annotations

import json
import logging
from datetime import datetime
from pathlib import Path

from mlebench.data import is_dataset_prepared
from mlebench.grade_helpers import CompetitionReport
from mlebench.registry import Competition, Registry
from mlebench.registry import registry as DEFAULT_REGISTRY  # noqa: N812 - v1's name
from mlebench.utils import get_timestamp, purple, read_jsonl

logger = logging.getLogger(__name__)


def _require_prepared(competition: Competition) -> None:
    if not is_dataset_prepared(competition, grading_only=True):
        raise ValueError(
            f"Dataset for competition `{competition.id}` is not prepared! "
            f"Please run `mlebench prepare -c {competition.id}` to prepare the dataset "
            f"(answers expected at {competition.answers})."
        )


def _v1_file(path: Path) -> bool:
    return path.is_file() and path.suffix.lower() == ".csv"


def grade_csv(path_to_submission: Path, competition: Competition) -> CompetitionReport:
    """Grade one submission CSV for ``competition``; raise ValueError if its answers are not prepared."""
    from graders.grade import competition_thresholds, grade
    from graders.medals import award
    from graders.registry import get_metric
    from mlebench_spec.declarations import load_competition

    _require_prepared(competition)
    comp = load_competition(competition.id)
    path = Path(path_to_submission)
    exists = _v1_file(path)
    if exists:
        result = grade(comp, path, competition.private_dir, mode="v1")
        if result.status != "ok":
            logger.warning(f"Invalid submission: {result.reason}")
        score, limits, medals, lower = result.score, result.thresholds, result.medals, result.is_lower_better
    else:
        logger.warning(f"Invalid submission file: {path}. Please check that the file exists and it is a CSV.")
        lower = not get_metric(comp.metric.name).higher_is_better
        limits = competition_thresholds(comp, higher_is_better=not lower)
        score, medals = None, award(None, limits, higher_is_better=not lower)
    return CompetitionReport(
        competition_id=competition.id,
        score=score,
        gold_threshold=limits.gold,
        silver_threshold=limits.silver,
        bronze_threshold=limits.bronze,
        median_threshold=limits.median,
        any_medal=medals.any_medal,
        gold_medal=medals.gold,
        silver_medal=medals.silver,
        bronze_medal=medals.bronze,
        above_median=medals.above_median,
        submission_exists=exists,
        valid_submission=score is not None,
        is_lower_better=lower,
        created_at=datetime.now(),
        submission_path=str(path_to_submission),
    )


def validate_submission(submission: Path, competition: Competition) -> tuple[bool, str]:
    """Whether ``submission`` can be graded, and a message saying why not (v1's wording)."""
    from graders.grade import grade
    from mlebench_spec.declarations import load_competition

    submission = Path(submission)
    if not submission.is_file():
        return False, f"Submission invalid! Submission file {submission} does not exist."
    if submission.suffix.lower() != ".csv":
        return False, "Submission invalid! Submission file must be a CSV file."
    _require_prepared(competition)
    result = grade(load_competition(competition.id), submission, competition.private_dir, mode="v1")
    if result.status != "ok":
        return (
            False,
            "Submission invalid! The attempt to grade the submission has resulted in the following error "
            f"message:\n{result.reason}",
        )
    return True, "Submission is valid."


def aggregate_reports(competition_reports: list[CompetitionReport]) -> dict:
    """v1's summary: totals over the reports, then each report as a dict."""
    from mlebench.reporting.v1 import grading_report

    return grading_report([report.to_dict() for report in competition_reports])


def grade_jsonl(path_to_submissions: Path, output_dir: Path, registry: Registry = DEFAULT_REGISTRY) -> None:
    """Grade each ``{competition_id, submission_path}`` line; write ``<timestamp>_grading_report.json``."""
    reports = []
    for entry in read_jsonl(path_to_submissions, skip_commented_out_lines=True):
        competition = registry.get_competition(entry["competition_id"])
        reports.append(grade_csv(Path(str(entry["submission_path"])), competition))
    summary = aggregate_reports(reports)
    logger.info(json.dumps({k: v for k, v in summary.items() if k != "competition_reports"}, indent=4))
    output_dir = Path(output_dir)
    output_dir.mkdir(exist_ok=True)
    save_path = output_dir / f"{get_timestamp()}_grading_report.json"
    save_path.write_text(json.dumps(summary, indent=2), encoding="utf-8")
    logger.info(purple(f"Saved summary report to {save_path}"))


__all__ = ["aggregate_reports", "grade_csv", "grade_jsonl", "validate_submission"]
