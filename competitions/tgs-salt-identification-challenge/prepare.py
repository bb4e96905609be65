"""tgs-salt-identification-challenge: MLE-bench v1's split of Kaggle's competition_data/train.csv.

v1 reads train.csv (an empty rle_mask becomes "") and splits its rows with TTS(0.25, seed 0). Public:
train.csv, train/images and train/masks of the train ids, test/images of the test ids, depths.csv
restricted to the train ids, sample_submission.csv (rle_mask "1 1"); private: test.csv (id, rle_mask).
Every table is sorted by id, as v1 writes them. Kaggle's own test images are not used.
"""

import shutil
import zipfile
from pathlib import Path

import pandas as pd

from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition

_ROOT = "competition_data"


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from the raw download, as the module docstring says."""
    with zipfile.ZipFile(raw / "competition_data.zip") as archive:
        with archive.open(f"{_ROOT}/train.csv") as handle:
            frame = pd.read_csv(handle).fillna("")
        train, test = (side.sort_values("id") for side in split_frame(frame, comp.split))
        train.to_csv(public / "train.csv", index=False)
        test.to_csv(private / comp.submission.answers, index=False)
        test[["id"]].assign(rle_mask="1 1").to_csv(public / "sample_submission.csv", index=False)
        for image_id in train["id"]:
            _copy(archive, f"train/images/{image_id}.png", public)
            _copy(archive, f"train/masks/{image_id}.png", public)
        for image_id in test["id"]:
            _copy(archive, f"train/images/{image_id}.png", public, f"test/images/{image_id}.png")
    depths = pd.read_csv(raw / "depths.csv")
    depths[depths["id"].isin(train["id"])].sort_values("id").to_csv(public / "depths.csv", index=False)


def _copy(archive: zipfile.ZipFile, member: str, public: Path, target: str | None = None) -> None:
    """Copy ``competition_data/<member>`` out of the zip to ``public/<target or member>``."""
    path = public / (target or member)
    path.parent.mkdir(parents=True, exist_ok=True)
    with archive.open(f"{_ROOT}/{member}") as src, path.open("wb") as dst:
        shutil.copyfileobj(src, dst)
