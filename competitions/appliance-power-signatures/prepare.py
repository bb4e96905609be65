"""appliance-power-signatures: tell the appliance from a day of its power draw (UCR ACSF1, source split)."""

from __future__ import annotations

from pathlib import Path

from mlebench.data.timeseries import read_ts, write_series_classification
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write the series and train/test/sample files to ``public`` and the one-hot answers to ``private``."""
    write_series_classification(
        read_ts(raw / "ACSF1_TRAIN.ts", channels=1, length=1460),
        read_ts(raw / "ACSF1_TEST.ts", channels=1, length=1460),
        classes=[f"a{k}" for k in range(10)],
        label_column="appliance",
        channel_columns=["power"],
        seed=comp.split.seed,
        public=public,
        private=private,
    )
