"""hms-harmful-brain-activity-classification: v1's split of Kaggle's train.csv by spectrogram.

v1 holds out 10% of the unique spectrogram_id values (in order of appearance) with
train_test_split(random_state=0) and asserts that no eeg_id is on both sides. The held-out label rows
become public/test.csv (spectrogram_id, eeg_id, patient_id: one row per label window), private/test.csv
(all columns) and private/gold_submission.csv (eeg_id and the votes normalised per row); EEG and
spectrogram parquet files follow their rows, and example_figures/ is copied.
"""

import shutil
from pathlib import Path

import pandas as pd
from sklearn.model_selection import train_test_split

from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition
from mlebench_spec.errors import DataError

VOTES = ["seizure_vote", "lpd_vote", "gpd_vote", "lrda_vote", "grda_vote", "other_vote"]


def _copy_parquets(ids: pd.Series, src: Path, dest: Path) -> None:
    dest.mkdir(parents=True, exist_ok=True)
    for item in ids.unique():
        shutil.copyfile(src / f"{item}.parquet", dest / f"{item}.parquet")


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write v1's public and private files from ``raw`` (see the module docstring)."""
    rows = pd.read_csv(raw / "train.csv")
    _, test_spectrograms = train_test_split(
        rows["spectrogram_id"].unique(), test_size=comp.split.test_fraction, random_state=comp.split.seed
    )
    held_out = rows["spectrogram_id"].isin(test_spectrograms)
    train, test = rows[~held_out], rows[held_out]
    if set(train["eeg_id"]) & set(test["eeg_id"]):
        raise DataError(f"{raw / 'train.csv'}: an eeg_id has spectrograms on both sides of the split")
    write_csv(train, public / "train.csv")
    write_csv(test[["spectrogram_id", "eeg_id", "patient_id"]], public / "test.csv")
    write_csv(test[["eeg_id"]].assign(**{v: 1 / 6 for v in VOTES}), public / "sample_submission.csv")
    write_csv(test, private / "test.csv")
    votes = test[VOTES].div(test[VOTES].sum(axis=1), axis=0)
    write_csv(pd.concat([test[["eeg_id"]], votes], axis=1), private / "gold_submission.csv")
    for side, frame in (("train", train), ("test", test)):
        _copy_parquets(frame["eeg_id"], raw / "train_eegs", public / f"{side}_eegs")
        _copy_parquets(frame["spectrogram_id"], raw / "train_spectrograms", public / f"{side}_spectrograms")
    shutil.copytree(raw / "example_figures", public / "example_figures")
