"""text-normalization-challenge-english-language: MLE-bench v1's split of en_train.csv by sentence.

v1 runs TTS(0.1, 0) over the unique sentence_id values (in order of appearance), renumbers sentence_id
0..k-1 in order of appearance separately in train and test, and sets id = "{sentence_id}_{token_id}".
Public gets zipped CSVs written with QUOTE_NONNUMERIC: en_train, en_test_2 (sentence_id, token_id, before)
and en_sample_submission_2 (id, after = before). Private gets answers.csv (id, after) and the same sample
submission unzipped.
"""

import csv
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data.archives import write_zip
from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition

LANG = "en"


def _renumber(frame: pd.DataFrame) -> pd.DataFrame:
    codes = {old: new for new, old in enumerate(frame["sentence_id"].unique())}
    return frame.assign(sentence_id=frame["sentence_id"].map(codes)).reset_index(drop=True)


def _write_zipped(frame: pd.DataFrame, public: Path, name: str) -> None:
    path = public / name
    frame.to_csv(path, index=False, quoting=csv.QUOTE_NONNUMERIC)
    write_zip([path], public, public / f"{name}.zip")
    path.unlink()


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from ``raw`` as MLE-bench v1 does (see the module docstring)."""
    frame = pd.read_csv(raw / f"{LANG}_train.csv.zip")
    train_ids, test_ids = train_test_split(
        frame["sentence_id"].unique(), test_size=comp.split.test_fraction, random_state=comp.split.seed
    )
    train = _renumber(frame[frame["sentence_id"].isin(train_ids)])
    test = _renumber(frame[frame["sentence_id"].isin(test_ids)])
    ids = test["sentence_id"].astype(str) + "_" + test["token_id"].astype(str)
    sample = pd.DataFrame({"id": ids, "after": test["before"]})
    _write_zipped(train, public, f"{LANG}_train.csv")
    _write_zipped(test[["sentence_id", "token_id", "before"]], public, f"{LANG}_test_2.csv")
    _write_zipped(sample, public, f"{LANG}_sample_submission_2.csv")
    write_csv(pd.DataFrame({"id": ids, "after": test["after"]}), private / comp.submission.answers)
    write_csv(sample, private / "sample_submission.csv")
