"""statoil-iceberg-classifier-challenge: MLE-bench v1 splits the records of Kaggle's train.json, TTS(0.2, 0).

train.json.7z and test.json.7z are extracted (data/processed/{train,test}.json); Kaggle's test.json is
used only for its field list. Public gets train.json.7z, test.json.7z (test fields only) and
sample_submission.csv.7z (is_iceberg = 0.5); private gets test.csv (id, is_iceberg) and the sample
submission unpacked.
"""

import importlib.util
import json
import tempfile
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.declarations import Competition
from mlebench.prepare import write_csv

MEMBER = "data/processed/{}"


def _sevenzip():
    spec = importlib.util.spec_from_file_location("statoil_sevenzip", Path(__file__).with_name("sevenzip.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _pack(sevenzip, path: Path, public: Path) -> None:
    sevenzip.write_7z([(MEMBER.format(path.name), path)], public / f"{path.name}.7z")


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from ``raw`` as MLE-bench v1 does (see the module docstring)."""
    sevenzip = _sevenzip()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for name in ("train.json", "test.json"):
            sevenzip.extract_7z(raw / f"{name}.7z", work / "raw")
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
            _pack(sevenzip, work / name, public)
    write_csv(answers, private / comp.submission.answers)
    write_csv(sample, private / "sample_submission.csv")
