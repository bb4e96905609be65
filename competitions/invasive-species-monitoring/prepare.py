"""invasive-species-monitoring: v1 holds out 20% of train_labels.csv's rows (TTS 0.2, seed 0).

Public: train.7z and test.7z (below), train_labels.csv.zip (the new train rows) and
sample_submission.csv.zip; v1 deletes the unzipped CSVs. Private: answers.csv (name, invasive) and
sample_submission.csv (invasive 0.5), which is the sample the declaration points to.

v1's public 7z archives hold no image: it passes each image folder to py7zr's write(), which stores
only the folder's own entry (only writeall() recurses). We keep v1's files by default, so scores compare
with runs on data v1 prepared: each archive holds one directory entry, ``train`` or ``test``, and nothing
else (v1 names the entry by the path it prepared in, which no other machine can reproduce). The task
therefore has no images, as in v1 (a known issue, see competition.yaml).
"""

import os
import tempfile
from pathlib import Path

import pandas as pd
import py7zr

from mlebench.data.archives import write_zip
from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition

FIXED_MTIME = 946_684_800  # 2000-01-01 UTC, stamped on each entry so archive bytes never depend on clocks


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build public/ and private/ from ``raw`` as v1 does (see the module docstring)."""
    train, test = split_frame(pd.read_csv(raw / "train_labels.csv.zip"), comp.split)
    _v1_archives(public, private)
    sample = test[["name"]].assign(invasive=0.5)
    _write_zipped_csv(train, public / "train_labels.csv")
    _write_zipped_csv(sample, public / "sample_submission.csv")
    write_csv(test[["name", "invasive"]], private / comp.submission.answers)
    write_csv(sample, private / "sample_submission.csv")


def _v1_archives(public: Path, scratch: Path) -> None:
    """Write v1's public/train.7z and public/test.7z: one empty directory entry each (see the module)."""
    with tempfile.TemporaryDirectory(dir=scratch) as tmp:
        for name in ("train", "test"):
            folder = Path(tmp) / name
            folder.mkdir()
            os.utime(folder, (FIXED_MTIME, FIXED_MTIME))
            with py7zr.SevenZipFile(public / f"{name}.7z", "w") as archive:
                archive.write(folder, name)


def _write_zipped_csv(frame: pd.DataFrame, path: Path) -> None:
    write_csv(frame, path)
    write_zip([path], path.parent, path.with_name(path.name + ".zip"))
    path.unlink()
