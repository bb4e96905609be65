"""A v1-format test agent: record the arguments and variables it got, submit the sample submission.

It writes ``$LOGS_DIR/seen.json`` (its argv, which interpreter and environment ran it, STEP_LIMIT and
TIME_LIMIT_SECS, whether OWN_TOKEN is set) and, to prove redaction, prints OWN_TOKEN's value to its output
and writes it into ``$CODE_DIR/leak.txt``; the runner must keep neither.
"""

import json
import os
import shutil
import sys
from pathlib import Path


def main() -> None:
    """Record what the runner gave, then copy the sample submission into place."""
    token = os.environ.get("OWN_TOKEN", "")
    seen = {
        "argv": sys.argv[1:],
        "executable": sys.executable,
        "prefix": sys.prefix,
        "conda_env": os.environ.get("CONDA_DEFAULT_ENV", ""),
        "step_limit": os.environ.get("STEP_LIMIT"),
        "time_limit_secs": os.environ.get("TIME_LIMIT_SECS"),
        "token_set": bool(token),
        "uid": os.getuid(),
    }
    Path(os.environ["LOGS_DIR"], "seen.json").write_text(json.dumps(seen), encoding="utf-8")
    if token:
        print(f"the token is {token}")
        Path(os.environ["CODE_DIR"], "leak.txt").write_text(token, encoding="utf-8")
    shutil.copy("/home/data/sample_submission.csv", Path(os.environ["SUBMISSION_DIR"]) / "submission.csv")


if __name__ == "__main__":
    main()
