"""vesuvius-challenge-ink-detection: MLE-bench v1 holds out Kaggle's training fragment 3.

Public: train/1 and train/2 complete, test/a (fragment 3 without inklabels.png, inklabels_rle.csv and
ir.png), sample_submission.csv (Id a, Predicted ``1 1 5 1``). Private: inklabels_rle.csv (Id a, fragment 3's
Predicted, and the width and height of its ir.png) and gold_submission.csv (Id, Predicted).
"""

import shutil
from pathlib import Path

import pandas as pd
from PIL import Image

from mlebench_spec.declarations import Competition

_HIDDEN = ("inklabels.png", "inklabels_rle.csv", "ir.png")


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from the raw download, as the module docstring says."""
    for fragment in ("1", "2"):
        shutil.copytree(raw / "train" / fragment, public / "train" / fragment)
    held_out = raw / "train" / "3"
    shutil.copytree(held_out, public / "test" / "a", ignore=shutil.ignore_patterns(*_HIDDEN))
    with Image.open(held_out / "ir.png") as ir:
        width, height = ir.size
    rle = pd.read_csv(held_out / "inklabels_rle.csv")["Predicted"].iloc[0]
    answers = pd.DataFrame({"Id": ["a"], "Predicted": [rle], "width": [width], "height": [height]})
    answers.to_csv(private / comp.submission.answers, index=False)
    answers[["Id", "Predicted"]].to_csv(private / "gold_submission.csv", index=False)
    pd.DataFrame({"Id": ["a"], "Predicted": ["1 1 5 1"]}).to_csv(
        public / "sample_submission.csv", index=False
    )
