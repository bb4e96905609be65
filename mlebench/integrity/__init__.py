"""The integrity stage's library: deterministic checks, plagiarism, the optional judge, the verdict.

It reads what a run left (above reporting, which holds the run record) and is run by the planning layer's
``integrity`` stages (below planning), beside the execution layer.
"""

from mlebench.integrity.checks import CHECKS, CheckResult, Context, run_checks
from mlebench.integrity.run_view import RunView
from mlebench.integrity.verdict import check_cell, check_run

__all__ = ["CHECKS", "CheckResult", "Context", "RunView", "check_cell", "check_run", "run_checks"]
