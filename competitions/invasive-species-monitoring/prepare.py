"""invasive-species-monitoring: v1 holds out 20% of train_labels.csv's rows (TTS 0.2, seed 0).

Each image of Kaggle's train.7z (``train/<name>.jpg``) follows its row into public/train.7z or
public/test.7z (``test/<name>.jpg``). Public also has train_labels.csv.zip (the new train rows) and
sample_submission.csv.zip; v1 deletes the unzipped CSVs. Private: answers.csv (name, invasive) and
sample_submission.csv (invasive 0.5), which is the sample the declaration points to.

v1 uses py7zr; here the folder's small 7z module reads the archive in one streaming pass and writes both
archives with the Copy coder (JPEGs do not compress), so the image bytes are identical.
"""

import importlib.util
from pathlib import Path

import pandas as pd

from mlebench.declarations import Competition
from mlebench.prepare import write_csv, write_zip
from mlebench.splitting import split_frame

_spec = importlib.util.spec_from_file_location("invasive_sevenzip", Path(__file__).with_name("sevenzip.py"))
sevenzip = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(sevenzip)


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build public/ and private/ from ``raw`` as v1 does (see the module docstring)."""
    train, test = split_frame(pd.read_csv(raw / "train_labels.csv.zip"), comp.split)
    _split_images(raw / "train.7z", set(test["name"].astype(str)), public)
    sample = test[["name"]].assign(invasive=0.5)
    _write_zipped_csv(train, public / "train_labels.csv")
    _write_zipped_csv(sample, public / "sample_submission.csv")
    write_csv(test[["name", "invasive"]], private / comp.submission.answers)
    write_csv(sample, private / "sample_submission.csv")


def _split_images(archive: Path, test_names: set[str], public: Path) -> None:
    with sevenzip.Writer(public / "train.7z") as train, sevenzip.Writer(public / "test.7z") as test:
        for member, data in sevenzip.read_members(archive):
            name = Path(member).stem
            if name in test_names:
                test.add(f"test/{name}.jpg", data)
            else:
                train.add(f"train/{name}.jpg", data)


def _write_zipped_csv(frame: pd.DataFrame, path: Path) -> None:
    write_csv(frame, path)
    write_zip([path], path.parent, path.with_name(path.name + ".zip"))
    path.unlink()
