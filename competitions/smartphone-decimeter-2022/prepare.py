"""smartphone-decimeter-2022: MLE-bench v1 splits Kaggle's train drives by drive date.

The date is the first ten characters of each drive folder name (YYYY-MM-DD); TTS(0.1, 0) runs over the
sorted unique dates and every drive on a test date becomes a test drive. Train drives are copied whole;
test drives lose ground_truth.csv, which the answers concatenate (drives and phones sorted) with
tripId = {drive}-{phone}. The sample submission is the answers with a constant position.

Unlike v1, the test drives' span_log.nmea files (high-accuracy reference positions) are not copied.
"""

import shutil
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition

COLUMNS = ["tripId", "UnixTimeMillis", "LatitudeDegrees", "LongitudeDegrees"]
SAMPLE_POSITION = {"LatitudeDegrees": 37.904611315634504, "LongitudeDegrees": -86.48107806249548}
HIDDEN = ["ground_truth.csv", "span_log.nmea"]


def _answers(drive: Path) -> list[pd.DataFrame]:
    frames = []
    for phone in sorted(p for p in drive.iterdir() if p.is_dir()):
        truth = pd.read_csv(phone / "ground_truth.csv")
        frames.append(truth.assign(tripId=f"{drive.name}-{phone.name}")[COLUMNS])
    return frames


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build ``public`` and ``private`` from ``raw`` as MLE-bench v1 does (see the module docstring)."""
    drives = sorted(p for p in (raw / "train").iterdir() if p.is_dir())
    dates = sorted({d.name[:10] for d in drives})
    _, test_dates = train_test_split(dates, test_size=comp.split.test_fraction, random_state=comp.split.seed)
    answers = []
    for drive in drives:
        if drive.name[:10] in test_dates:
            shutil.copytree(drive, public / "test" / drive.name, ignore=shutil.ignore_patterns(*HIDDEN))
            answers += _answers(drive)
        else:
            shutil.copytree(drive, public / "train" / drive.name)
    shutil.copytree(raw / "metadata", public / "metadata")
    answers = pd.concat(answers, ignore_index=True)
    write_csv(answers, private / comp.submission.answers)
    write_csv(answers.assign(**SAMPLE_POSITION), public / "sample_submission.csv")
