"""The ``validate`` command inside an agent's container: is this submission's format right.

It runs the graders' own validation (``graders.submission``), with the public sample submission standing
in for the answers: the sample has exactly the answers' ids and columns, so every format problem the grader
would reject (columns, ids, row count, empty cells, NaN, values the metric cannot take) is reported with the
grader's own words. Only public information is used — the sample submission in ``$DATA_DIR`` and the
competition's submission format and metric name in ``/opt/mlebench/competition.json`` — and no score is
ever computed or printed. The metric is looked up in ``graders.inputs`` (kind and bounds), so no metric
function is loaded, nor shipped in the agent's image.

Usage: ``validate [PATH]`` (default ``$SUBMISSION_DIR/submission.csv``). Exit status 0 when valid, 1 when
invalid, 2 when the check itself could not run.
"""

from __future__ import annotations

import json
import os
import sys
from pathlib import Path

SPEC = Path(os.environ.get("MLEBENCH_VALIDATION_SPEC", "/opt/mlebench/competition.json"))
EXIT_VALID, EXIT_INVALID, EXIT_UNCHECKED = 0, 1, 2


def check(submission: Path, data_dir: Path, spec_path: Path) -> tuple[int, str]:
    """Validate ``submission`` against the public sample in ``data_dir``; return (status, message)."""
    from graders.errors import InvalidSubmission
    from graders.inputs import get_inputs
    from graders.submission import read_answers, read_submission, validate
    from mlebench.spec.declarations import Submission

    try:
        spec = json.loads(spec_path.read_text(encoding="utf-8"))
        fmt = Submission.model_validate(spec["submission"])
        where, _, name = fmt.sample.partition("/")
        if where != "public":
            return EXIT_UNCHECKED, f"Could not check the submission: no public sample ({fmt.sample})"
        sample = data_dir / name
        inputs = get_inputs(spec["metric"]["name"])
        reference = read_answers(sample)
    except Exception as exc:  # noqa: BLE001 - any failure here means "could not check", never "invalid"
        return EXIT_UNCHECKED, f"Could not check the submission: {type(exc).__name__}: {exc}"
    try:
        table = read_submission(submission)
        validate(table, reference, fmt, inputs, metric_args=spec["metric"].get("args", {}))
    except InvalidSubmission as exc:
        return EXIT_INVALID, "Submission invalid: " + "; ".join(exc.reasons)
    except ValueError as exc:
        return EXIT_UNCHECKED, f"Could not check the submission against {sample.name}: {exc}"
    return (
        EXIT_VALID,
        f"Submission is valid: {submission} has the format of {sample.name} (no score is given).",
    )


def main(argv: list[str]) -> int:
    """Command-line entry: ``validate [PATH]``."""
    if len(argv) > 1 or (argv and argv[0] in ("-h", "--help")):
        print(__doc__)
        return EXIT_UNCHECKED
    default = Path(os.environ.get("SUBMISSION_DIR", "/home/submission")) / "submission.csv"
    submission = Path(argv[0]) if argv else default
    status, message = check(submission, Path(os.environ.get("DATA_DIR", "/home/data")), SPEC)
    print(message)
    return status


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
