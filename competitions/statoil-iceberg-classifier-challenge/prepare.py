"""statoil-iceberg-classifier-challenge: MLE-bench v1 splits the records of Kaggle's train.json, TTS(0.2, 0).

train.json.7z and test.json.7z are extracted (data/processed/{train,test}.json); Kaggle's test.json is
used only for its field list. Public gets train.json.7z, test.json.7z (test fields only) and
sample_submission.csv.7z (is_iceberg = 0.5), each holding its one file at the archive's root (train.json,
not data/processed/train.json, as v1 writes them); private gets test.csv (id, is_iceberg) and the sample
submission unpacked.

Archives are read and written with py7zr, as in v1 (default filters). Each file is staged with a fixed mtime
and mode before it is archived, so the public archives are reproducible byte for byte.
"""

import json
import os
import tempfile
from pathlib import Path

import pandas as pd
import py7zr
from sklearn.model_selection import train_test_split

from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition

MEMBER = "data/processed/{}"
FIXED_MTIME = 946_684_800  # 2000-01-01 UTC, stamped on every member so archive bytes never depend on clocks


def _pack(path: Path, public: Path) -> None:
    os.chmod(path, 0o644)
    os.utime(path, (FIXED_MTIME, FIXED_MTIME))
    with py7zr.SevenZipFile(public / f"{path.name}.7z", "w") as archive:
        archive.write(path, path.name)


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from ``raw`` as MLE-bench v1 does (see the module docstring)."""
    with tempfile.TemporaryDirectory(dir=private) as tmp:
        work = Path(tmp)
        for name in ("train.json", "test.json"):
            with py7zr.SevenZipFile(raw / f"{name}.7z") as archive:
                archive.extractall(work / "raw")
        records = json.loads((work / "raw" / MEMBER.format("train.json")).read_text())
        test_fields = list(json.loads((work / "raw" / MEMBER.format("test.json")).read_text())[0])
        train, test = train_test_split(
            records, test_size=comp.split.test_fraction, random_state=comp.split.seed
        )
        (work / "train.json").write_text(json.dumps(train))
        (work / "test.json").write_text(json.dumps([{k: r[k] for k in test_fields} for r in test]))
        answers = pd.DataFrame({"id": [r["id"] for r in test], "is_iceberg": [r["is_iceberg"] for r in test]})
        sample = answers.assign(is_iceberg=0.5)
        write_csv(sample, work / "sample_submission.csv")
        for name in ("train.json", "test.json", "sample_submission.csv"):
            _pack(work / name, public)
    write_csv(answers, private / comp.submission.answers)
    write_csv(sample, private / "sample_submission.csv")
