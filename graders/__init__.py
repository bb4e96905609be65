"""Scoring library: metrics by name, submission validation, medals and the grade function.

Everything a stage needs is re-exported here; the modules hold one concept each.
"""

from .errors import InvalidSubmission
from .grade import GradeResult, grade
from .leaderboard import load_leaderboard
from .medals import Medals, Thresholds, award, medal_positions, thresholds
from .registry import KINDS, METRICS, Metric, get_metric, metric_arg_problems
from .rle import parse_rles, rle_decode, rle_encode
from .submission import read_answers, read_submission, validate

__all__ = [
    "KINDS",
    "METRICS",
    "GradeResult",
    "InvalidSubmission",
    "Medals",
    "Metric",
    "Thresholds",
    "award",
    "get_metric",
    "grade",
    "load_leaderboard",
    "medal_positions",
    "metric_arg_problems",
    "parse_rles",
    "read_answers",
    "read_submission",
    "rle_decode",
    "rle_encode",
    "thresholds",
    "validate",
]
