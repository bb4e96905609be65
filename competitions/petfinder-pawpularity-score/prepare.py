"""petfinder-pawpularity-score: MLE-bench v1's split of Kaggle's train.csv (TTS 0.1, seed 0).

The images follow their rows into ``train/`` and ``test/``; the sample submission draws
``uniform(1, 100)`` rounded to 2 decimals from ``default_rng(0)``.
"""

import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw``."""
    train, test = split_frame(pd.read_csv(raw / "train.csv"), comp.split)
    write_csv(train, public / "train.csv")
    write_csv(test.drop(columns=["Pawpularity"]), public / "test.csv")
    write_csv(test, private / comp.submission.answers)
    rng = np.random.default_rng(comp.split.seed)
    sample = pd.DataFrame({"Id": test["Id"], "Pawpularity": rng.uniform(1, 100, len(test)).round(2)})
    write_csv(sample, public / "sample_submission.csv")
    for name, rows in (("train", train), ("test", test)):
        (public / name).mkdir(parents=True, exist_ok=True)
        for image_id in rows["Id"]:
            shutil.copyfile(raw / "train" / f"{image_id}.jpg", public / name / f"{image_id}.jpg")
