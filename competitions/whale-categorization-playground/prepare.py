"""whale-categorization-playground: MLE-bench v1's split of Kaggle's train.csv (Image, Id).

Going through the whale Ids in order of first appearance in train.csv, v1:
1. for an Id with at least two images, draws two with ``sample(2, random_state=seed)``: the first goes
   to train, the second to test, and the Id's other images wait for step 3;
2. for an Id with one image, picks its side with numpy ``default_rng(seed).choice(["train", "test"],
   p=[0.9, 0.1])``, one call per such Id on one stream;
3. splits the waiting images with TTS(test_fraction, seed);
4. relabels test images whose Id never occurs in train as ``new_whale``.
Both sides keep train.csv's row order. Public: train.csv, train/ and test/ images, sample_submission.csv;
private: test.csv (Image, Id).
"""

import shutil
from pathlib import Path

import numpy as np
import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench_spec.declarations import Competition

_SAMPLE_IDS = "new_whale w_1287fbc w_98baff9 w_7554f44 w_1eafe46"
_SINGLE_TO_TEST = 0.1


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from the raw download, as the module docstring says."""
    train, test = _split(pd.read_csv(raw / "train.csv"), comp.split.test_fraction, comp.split.seed)
    test = test.assign(Id=test["Id"].where(test["Id"].isin(set(train["Id"])), "new_whale"))
    train.to_csv(public / "train.csv", index=False)
    test.to_csv(private / comp.submission.answers, index=False)
    test[["Image"]].assign(Id=_SAMPLE_IDS).to_csv(public / "sample_submission.csv", index=False)
    for side, frame in (("train", train), ("test", test)):
        (public / side).mkdir()
        for name in frame["Image"]:
            shutil.copyfile(raw / "train" / name, public / side / name)


def _split(frame: pd.DataFrame, test_fraction: float, seed: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    rng = np.random.default_rng(seed)
    side = pd.Series("", index=frame.index)
    for _, images in frame.groupby("Id", sort=False):
        if len(images) >= 2:
            drawn = images.sample(2, random_state=seed).index
            side[drawn[0]], side[drawn[1]] = "train", "test"
        else:
            side[images.index[0]] = rng.choice(["train", "test"], p=[1 - _SINGLE_TO_TEST, _SINGLE_TO_TEST])
    rest_train, rest_test = train_test_split(frame[side == ""], test_size=test_fraction, random_state=seed)
    side[rest_train.index], side[rest_test.index] = "train", "test"
    return frame[side == "train"], frame[side == "test"]
