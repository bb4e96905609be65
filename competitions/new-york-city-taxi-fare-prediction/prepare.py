"""new-york-city-taxi-fare-prediction: v1 holds out 9,914 rows of the ~55M-row train.csv (TTS, seed 0).

The public training set is named labels.csv, as in v1. The split streams (``mlebench.data.streaming``), so the
5.7 GB file prepares in bounded memory and gives the same rows in the same order as
``train_test_split(pd.read_csv(train.csv), test_size=9914, random_state=0)``.
"""

import shutil
from pathlib import Path

from mlebench.data.streaming import stream_train_test_split
from mlebench_spec.declarations import Competition

DTYPE = {
    "key": "string[pyarrow]",
    "fare_amount": "float64",
    "pickup_datetime": "string[pyarrow]",
    "pickup_longitude": "float64",
    "pickup_latitude": "float64",
    "dropoff_longitude": "float64",
    "dropoff_latitude": "float64",
    "passenger_count": "int64",
}


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write labels.csv, test.csv and the sample to ``public``, the held-out rows to ``private``."""
    test = stream_train_test_split(
        raw / "train.csv",
        public / "labels.csv",
        test_size=comp.split.test_size,
        random_state=comp.split.seed,
        dtype=DTYPE,
    )
    test.drop(columns="fare_amount").to_csv(public / "test.csv", index=False)
    test.to_csv(private / comp.submission.answers, index=False)
    test[["key"]].assign(fare_amount=11.35).to_csv(public / "sample_submission.csv", index=False)
    shutil.copyfile(raw / "GCP-Coupons-Instructions.rtf", public / "GCP-Coupons-Instructions.rtf")
