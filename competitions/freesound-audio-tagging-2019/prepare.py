"""freesound-audio-tagging-2019: v1 keeps Kaggle's test clips.

Every file of Kaggle's download is copied unchanged to public/. The answers come from Zenodo's
FSDKaggle2019.meta.zip (downloaded by the fetch, as declared in source.extra_files, and not published):
the rows of test_post_competition.csv whose usage is Private, many-hot over the 80 classes in submission
column order, written to private/test.csv. They must list the fnames and the columns of Kaggle's
sample_submission.csv.
"""

import shutil
import zipfile
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import link_or_copy
from mlebench_spec.declarations import Competition
from mlebench_spec.errors import DataError

META_ZIP = "FSDKaggle2019.meta.zip"
TEST_LABELS = "FSDKaggle2019.meta/test_post_competition.csv"


def _answers(raw: Path, classes: list[str]) -> pd.DataFrame:
    with zipfile.ZipFile(raw / META_ZIP) as zf, zf.open(TEST_LABELS) as f:
        labels = pd.read_csv(f)
    labels = labels[labels["usage"] == "Private"].reset_index(drop=True)
    answers = pd.DataFrame(0, index=labels.index, columns=classes)
    for row, names in enumerate(labels["labels"]):
        for name in names.split(","):
            if name not in answers.columns:
                raise DataError(f"{META_ZIP}: unknown class {name!r} for {labels['fname'][row]}")
            answers.loc[row, name] = 1
    answers.insert(0, "fname", labels["fname"])
    return answers


def _link_or_copy(src: str, dest: str) -> None:
    link_or_copy(Path(src), Path(dest))


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Copy Kaggle's files to public/ and write the private test labels as a many-hot matrix."""
    for path in sorted(raw.iterdir()):
        if path.name == META_ZIP:
            continue
        if path.is_dir():
            shutil.copytree(path, public / path.name, copy_function=_link_or_copy)
        else:
            link_or_copy(path, public / path.name)
    answers = _answers(raw, comp.submission.columns[1:])
    sample = pd.read_csv(raw / "sample_submission.csv")
    if list(sample.columns) != list(answers.columns) or set(sample["fname"]) != set(answers["fname"]):
        raise DataError(f"{META_ZIP}: the Private test rows do not match sample_submission.csv")
    answers.to_csv(private / "test.csv", index=False)
