"""predict-volcanic-eruptions-ingv-oe: MLE-bench v1's split of Kaggle's train.csv (TTS 0.1, seed 0).

Each segment's sensor file train/{segment_id}.csv goes to public train/ or test/ with its row; the private
test.csv holds (segment_id, time_to_eruption) and the sample submission predicts 0.
"""

import shutil
from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split the raw download into ``public`` and ``private`` as v1 does."""
    train, test = split_frame(pd.read_csv(raw / "train.csv"), comp.split)
    for side, rows in (("train", train), ("test", test)):
        (public / side).mkdir()
        for segment in rows["segment_id"]:
            shutil.copyfile(raw / "train" / f"{segment}.csv", public / side / f"{segment}.csv")
    write_csv(train, public / "train.csv")
    write_csv(test, private / comp.submission.answers)
    write_csv(test[["segment_id"]].assign(time_to_eruption=0), public / "sample_submission.csv")
