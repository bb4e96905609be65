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

KWARGS = json.loads(os.environ.get("AGENT_KWARGS") or "{}")
SUBMISSION = Path(os.environ["SUBMISSION_DIR"]) / "submission.csv"


def put(phase: dict) -> None:
    tmp = SUBMISSION.with_name(".submission.csv.tmp")
    if "csv" in phase:
        tmp.write_text(phase["csv"], encoding="utf-8")
    elif "symlink" in phase:
        tmp.symlink_to(phase["symlink"])
    elif "bytes" in phase:
        tmp.write_bytes(b"x" * int(phase["bytes"]))
    else:
        return
    os.replace(tmp, SUBMISSION)


if KWARGS.get("pid_file"):
    Path(KWARGS["pid_file"]).write_text(str(os.getpid()), encoding="utf-8")
for phase in KWARGS.get("phases", []):
    put(phase)
    print(f"phase {sorted(phase)} at {time.monotonic():.1f}", flush=True)
    time.sleep(float(phase.get("sleep", 0)))
