"""invasive-species-monitoring: v1 holds out 20% of train_labels.csv's rows (TTS 0.2, seed 0).

Each image of Kaggle's train.7z (``train/<name>.jpg``) follows its row into public/train.7z or
public/test.7z (``test/<name>.jpg``). Public also has train_labels.csv.zip (the new train rows) and
sample_submission.csv.zip; v1 deletes the unzipped CSVs. Private: answers.csv (name, invasive) and
sample_submission.csv (invasive 0.5), which is the sample the declaration points to.

v1's own public 7z archives hold no image: it passes each image folder to py7zr's write(), which stores
only the folder's entry. Ours hold the images (a declared deviation, see competition.yaml). Like v1 this
uses py7zr: train.7z is extracted to a scratch folder (streamed to disk), and both public archives are
written member by member, in name order, with the Copy filter (JPEGs do not compress), so the image bytes
are identical. Every member gets a fixed mtime and mode, so the archives are reproducible.
"""

import os
import tempfile
from pathlib import Path

import pandas as pd
import py7zr

from mlebench.data.archives import write_zip
from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench.spec.declarations import Competition

STORE = [{"id": py7zr.FILTER_COPY}]
FIXED_MTIME = 946_684_800  # 2000-01-01 UTC, stamped on every member so archive bytes never depend on clocks


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build public/ and private/ from ``raw`` as v1 does (see the module docstring)."""
    train, test = split_frame(pd.read_csv(raw / "train_labels.csv.zip"), comp.split)
    _split_images(raw / "train.7z", set(test["name"].astype(str)), public, private)
    sample = test[["name"]].assign(invasive=0.5)
    _write_zipped_csv(train, public / "train_labels.csv")
    _write_zipped_csv(sample, public / "sample_submission.csv")
    write_csv(test[["name", "invasive"]], private / comp.submission.answers)
    write_csv(sample, private / "sample_submission.csv")


def _split_images(archive: Path, test_names: set[str], public: Path, scratch: Path) -> None:
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        with py7zr.SevenZipFile(archive) as source:
            source.extractall(tmp)
        images = sorted(p for p in Path(tmp).rglob("*") if p.is_file())
        with (
            py7zr.SevenZipFile(public / "train.7z", "w", filters=STORE) as train,
            py7zr.SevenZipFile(public / "test.7z", "w", filters=STORE) as test,
        ):
            for path in images:
                os.chmod(path, 0o644)
                os.utime(path, (FIXED_MTIME, FIXED_MTIME))
                if path.stem in test_names:
                    test.write(path, f"test/{path.stem}.jpg")
                else:
                    train.write(path, f"train/{path.stem}.jpg")


def _write_zipped_csv(frame: pd.DataFrame, path: Path) -> None:
    write_csv(frame, path)
    write_zip([path], path.parent, path.with_name(path.name + ".zip"))
    path.unlink()
