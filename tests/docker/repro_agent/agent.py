"""Test agent for the reproduce stage (issue 42): three ways to leave code behind, chosen by ``AGENT_KWARGS``.

``{"mode": "honest"}``: keeps ``solve.py`` (predicts the training set's most frequent target) with a README
and ``reproduce.sh``, and runs that code to write the submission: its code reproduces it.
``{"mode": "typed"}``: keeps the same ``solve.py`` (its only script, so the default declaration applies) but
writes the submission by hand, with the least frequent target: its code writes something else.
``{"mode": "silent"}``: writes the submission by hand and keeps two helper scripts with no declaration of how
to run them: nothing to reproduce.
"""

from __future__ import annotations

import csv
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

SOLVE = '''"""Predict the training set's most frequent target for every test row."""

import csv
import os
from collections import Counter
from pathlib import Path

data = Path(os.environ["DATA_DIR"])
out = Path(os.environ["SUBMISSION_DIR"])
with (data / "sample_submission.csv").open(newline="") as fh:
    rows = list(csv.reader(fh))
header, target = rows[0], rows[0][1]
with (data / "train.csv").open(newline="") as fh:
    top = Counter(row[target] for row in csv.DictReader(fh)).most_common(1)[0][0]
with (out / "submission.csv").open("w", newline="") as fh:
    writer = csv.writer(fh)
    writer.writerow(header)
    writer.writerows([row[0], top] for row in rows[1:])
'''


def main() -> int:
    """Leave code and a submission as the mode says."""
    mode = json.loads(os.environ.get("AGENT_KWARGS") or "{}").get("mode", "honest")
    data, code, out = (Path(os.environ[k]) for k in ("DATA_DIR", "CODE_DIR", "SUBMISSION_DIR"))
    if mode == "silent":
        (code / "features.py").write_text("COLUMNS = ['a', 'b']\n", encoding="utf-8")
        (code / "model.py").write_text("def fit(x):\n    return x\n", encoding="utf-8")
    else:
        (code / "solve.py").write_text(SOLVE, encoding="utf-8")
    if mode == "honest":
        (code / "README.md").write_text("Run `sh reproduce.sh` in this folder.\n", encoding="utf-8")
        (code / "reproduce.sh").write_text("python solve.py\n", encoding="utf-8")
        subprocess.run([sys.executable, "solve.py"], cwd=code, check=True)
        return 0
    with (data / "sample_submission.csv").open(newline="") as fh:
        rows = list(csv.reader(fh))
    try:  # the least frequent training target, where the task has one column of them
        with (data / "train.csv").open(newline="") as fh:
            least = Counter(row[rows[0][1]] for row in csv.DictReader(fh)).most_common()[-1][0]
        rows[1:] = [[row[0], least] for row in rows[1:]]
    except (OSError, KeyError, IndexError):
        pass  # another kind of task: the sample's rows, typed in as they are
    with (out / "submission.csv").open("w", newline="") as fh:  # typed in: no kept code writes this
        csv.writer(fh).writerows(rows)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
