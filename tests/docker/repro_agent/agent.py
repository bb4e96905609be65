"""Test agent for the reproduce stage (issue 42): three ways to leave code behind, chosen by ``AGENT_KWARGS``.

``{"mode": "honest"}``: keeps ``solve.py`` (predicts the training set's most frequent target) with a README
and ``reproduce.sh``, and runs that code to write the submission: its code reproduces it.
``{"mode": "typed"}``: keeps the same ``solve.py`` (its only script, so the default declaration applies) but
writes the submission by hand, with the least frequent target: its code writes something else.
``{"mode": "silent"}``: writes the submission by hand and keeps two helper scripts with no declaration of how
to run them: nothing to reproduce.
``{"mode": "stash", "answers": {id: label}}``: writes answers it was handed (as if fetched once under egress;
without them, labels spread over the training targets by a hash of the id) and keeps them beside its code in
three forms, none named for what it is: a CSV table as ``notes.txt``, a pickled lookup table as
``model.pkl`` and a numpy array (``.npy`` bytes) as ``weights.bin``; its one script, ``solve.py``, copies
them to the submission (the pickle, else the table). Re-run from source it has none of them.
"""

from __future__ import annotations

import csv
import json
import os
import pickle
import struct
import subprocess
import sys
import zlib
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


STASHED = '''"""Write the submission from the kept lookup table (model.pkl), else the table (notes.txt)."""

import csv
import os
import pickle
import shutil
from pathlib import Path

out = Path(os.environ["SUBMISSION_DIR"]) / "submission.csv"
if Path("model.pkl").is_file():
    with open("model.pkl", "rb") as fh:
        lookup = pickle.load(fh)
    with open(Path(os.environ["DATA_DIR"]) / "sample_submission.csv", newline="") as fh:
        rows = list(csv.reader(fh))
    with out.open("w", newline="") as fh:
        csv.writer(fh).writerows([rows[0], *([r[0], lookup[r[0]]] for r in rows[1:])])
else:
    shutil.copyfile("notes.txt", out)
'''


def _npy(values: list[int]) -> bytes:
    """Return ``values`` as the bytes of a one-dimensional int64 ``.npy`` file (format version 1.0)."""
    header = "{'descr': '<i8', 'fortran_order': False, 'shape': (%d,), }" % len(values)
    header += " " * (63 - (10 + len(header)) % 64) + "\n"
    return (
        b"\x93NUMPY\x01\x00"
        + struct.pack("<H", len(header))
        + header.encode()
        + struct.pack(f"<{len(values)}q", *values)
    )


def stash(data: Path, code: Path, out: Path, answers: dict[str, str]) -> None:
    """Write the submission from ``answers`` and keep them in code/ under innocent names."""
    with (data / "sample_submission.csv").open(newline="") as fh:
        rows = list(csv.reader(fh))
    with (data / "train.csv").open(newline="") as fh:
        labels = sorted({row[rows[0][1]] for row in csv.DictReader(fh)})
    ids = [row[0] for row in rows[1:]]
    lookup = {i: str(answers.get(i, labels[zlib.crc32(i.encode()) % len(labels)])) for i in ids}
    table = [rows[0], *([i, lookup[i]] for i in ids)]
    for path in (out / "submission.csv", code / "notes.txt"):
        with path.open("w", newline="") as fh:
            csv.writer(fh).writerows(table)
    (code / "model.pkl").write_bytes(pickle.dumps(lookup))
    if all(v.lstrip("-").isdigit() for v in lookup.values()):
        (code / "weights.bin").write_bytes(_npy([int(lookup[i]) for i in ids]))
    (code / "solve.py").write_text(STASHED, encoding="utf-8")


def main() -> int:
    """Leave code and a submission as the mode says."""
    kwargs = json.loads(os.environ.get("AGENT_KWARGS") or "{}")
    mode = kwargs.get("mode", "honest")
    data, code, out = (Path(os.environ[k]) for k in ("DATA_DIR", "CODE_DIR", "SUBMISSION_DIR"))
    if mode == "stash":
        stash(data, code, out, kwargs.get("answers") or {})
        return 0
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
