"""A test agent that writes its submission in phases, to be caught by the runner's any-time snapshots.

``AGENT_KWARGS``: ``{"phases": [...], "pid_file": path}``. Each phase first puts something at
``$SUBMISSION_DIR/submission.csv`` and then sleeps ``sleep`` seconds: ``{"csv": text}`` (written whole,
by rename), ``{"symlink": target}``, ``{"bytes": n}`` (a regular file of n bytes) or ``{}`` (nothing).
``pid_file`` (optional) receives the agent's pid, so a test can kill it.
"""

import json
import os
import time
from pathlib import Path


def put(phase: dict, submission: Path) -> None:
    tmp = submission.with_name(".submission.csv.tmp")
    if "csv" in phase:
        tmp.write_text(phase["csv"], encoding="utf-8")
    elif "symlink" in phase:
        tmp.symlink_to(phase["symlink"])
    elif "bytes" in phase:
        tmp.write_bytes(b"x" * int(phase["bytes"]))
    else:
        return
    os.replace(tmp, submission)


def main() -> None:
    kwargs = json.loads(os.environ.get("AGENT_KWARGS") or "{}")
    submission = Path(os.environ["SUBMISSION_DIR"]) / "submission.csv"
    if kwargs.get("pid_file"):
        Path(kwargs["pid_file"]).write_text(str(os.getpid()), encoding="utf-8")
    for phase in kwargs.get("phases", []):
        put(phase, submission)
        print(f"phase {sorted(phase)} at {time.monotonic():.1f}", flush=True)
        time.sleep(float(phase.get("sleep", 0)))


if __name__ == "__main__":
    main()
