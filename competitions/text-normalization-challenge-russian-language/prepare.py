"""text-normalization-challenge-russian-language: MLE-bench v1's split of Kaggle's ru_train.csv by sentence.

v1 splits the unique sentence_id values (in order of appearance) with TTS(0.1, seed 0); the rows of each
side keep their order and their sentence ids are renumbered 0..k-1 in order of appearance. A token's id is
``{sentence_id}_{token_id}``. Public: ru_train.csv.zip, ru_test_2.csv.zip (sentence_id, token_id, before)
and ru_sample_submission_2.csv.zip (id, after = before), each CSV written with QUOTE_NONNUMERIC; private:
answers.csv (id, after) and sample_submission.csv. Kaggle's own test and sample zips are not used.
"""

import csv
import zipfile
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data.archives import write_zip
from mlebench_spec.declarations import Competition

_LANG = "ru"


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from the raw download, as the module docstring says."""
    with zipfile.ZipFile(raw / f"{_LANG}_train.csv.zip") as archive:
        with archive.open(f"{_LANG}_train.csv") as handle:
            frame = pd.read_csv(handle)
    sentences = frame["sentence_id"].unique()
    size = comp.split.test_size or comp.split.test_fraction
    train_ids, test_ids = train_test_split(sentences, test_size=size, random_state=comp.split.seed)
    train = _renumbered(frame[frame["sentence_id"].isin(train_ids)])
    test = _renumbered(frame[frame["sentence_id"].isin(test_ids)])
    token_ids = test["sentence_id"].astype(str) + "_" + test["token_id"].astype(str)
    answers = pd.DataFrame({"id": token_ids, "after": test["after"]})
    sample = pd.DataFrame({"id": token_ids, "after": test["before"]})
    _zipped_csv(train, public, f"{_LANG}_train.csv")
    _zipped_csv(test[["sentence_id", "token_id", "before"]], public, f"{_LANG}_test_2.csv")
    _zipped_csv(sample, public, f"{_LANG}_sample_submission_2.csv")
    answers.to_csv(private / comp.submission.answers, index=False)
    sample.to_csv(private / "sample_submission.csv", index=False, quoting=csv.QUOTE_NONNUMERIC)


def _renumbered(rows: pd.DataFrame) -> pd.DataFrame:
    """``rows`` with sentence ids replaced by 0..k-1 in order of first appearance."""
    return rows.assign(sentence_id=pd.factorize(rows["sentence_id"])[0])


def _zipped_csv(frame: pd.DataFrame, public: Path, name: str) -> None:
    """Write ``frame`` as ``public/<name>.zip`` holding ``name``, with no unzipped copy left behind."""
    path = public / name
    frame.to_csv(path, index=False, quoting=csv.QUOTE_NONNUMERIC)
    write_zip([path], public, public / f"{name}.zip")
    path.unlink()
