"""uw-madison-gi-tract-image-segmentation: MLE-bench v1's split of Kaggle's train.csv by case and day.

v1 splits the unique cases (order of appearance) with TTS(0.1, seed 42); those cases go wholly to test.
A training case scanned on more than 4 days also gives its days after the 4th (by day number) to test.
Public: train.csv (id, class, segmentation), test.csv (id, class), the scan folders under train/ and
test/ (``<case>/<case>_<day>/scans``), sample_submission.csv (predicted ``1 1 5 2``). Private: test.csv
(id, class, predicted = segmentation, image_width, image_height), the sizes read from the scan file names
and written as floats (``266.0``): v1 fills them into a new column cell by cell, which pandas makes float.
"""

import re
import shutil
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench_spec.declarations import Competition

_ID = re.compile(r"^(?P<case>case\d+)_day(?P<day>\d+)_slice_(?P<slice>\d+)$")
_KEPT_DAYS = 4


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from the raw download, as the module docstring says."""
    rows = pd.read_csv(raw / "train.csv", keep_default_na=False)
    parts = rows["id"].str.extract(_ID)
    size = comp.split.test_size or comp.split.test_fraction
    _, test_cases = train_test_split(
        parts["case"].unique().tolist(), test_size=size, random_state=comp.split.seed
    )
    day = parts["day"].astype(int)
    late = _late_days(parts["case"], day)
    in_test = (parts["case"].isin(test_cases) | late).to_numpy()
    train, test = rows[~in_test], rows[in_test]
    train.to_csv(public / "train.csv", index=False)
    test[["id", "class"]].to_csv(public / "test.csv", index=False)
    test[["id", "class"]].assign(predicted="1 1 5 2").to_csv(public / "sample_submission.csv", index=False)
    for side, side_parts in (("train", parts[~in_test]), ("test", parts[in_test])):
        for case, case_day in sorted(
            set(zip(side_parts["case"], side_parts["case"] + "_day" + side_parts["day"], strict=True))
        ):
            source = raw / "train" / case / case_day
            shutil.copytree(source, public / side / case / case_day)
    sizes = _sizes(public / "test")
    answers = test.rename(columns={"segmentation": "predicted"})
    answers = answers.assign(
        image_width=[float(sizes[i][0]) for i in answers["id"]],
        image_height=[float(sizes[i][1]) for i in answers["id"]],
    )
    answers.to_csv(private / comp.submission.answers, index=False)


def _late_days(cases: pd.Series, days: pd.Series) -> pd.Series:
    """Rows whose day comes after their case's 4th day (by day number)."""
    rank = days.groupby(cases).rank(method="dense")
    return rank > _KEPT_DAYS


def _sizes(folder: Path) -> dict[str, tuple[int, int]]:
    """Map each slice id to (width, height), read from ``slice_<Z>_<W>_<H>_<sx>_<sy>.png`` names."""
    sizes = {}
    for scan in folder.glob("*/*/scans/*.png"):
        _, number, width, height, *_ = scan.stem.split("_")
        sizes[f"{scan.parent.parent.name}_slice_{number}"] = (int(width), int(height))
    return sizes
