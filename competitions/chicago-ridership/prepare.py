"""chicago-ridership: daily boardings at the Clark/Lake L station; the last 728 days are the test period."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np

from mlebench.data.prepare import read_rdata, write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition
from mlebench_spec.errors import DataError

# Clark_Lake is the target itself, 14 days earlier: in the test period it would hand over the answers.
_LEAKY = "Clark_Lake"
_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write train/test/sample submission to ``public`` and the answers to ``private``."""
    source = read_rdata(raw / "Chicago.pkl.compress")
    if not np.allclose(source[_LEAKY].to_numpy()[14:], source["ridership"].to_numpy()[:-14]):
        raise DataError(f"{raw}: {_LEAKY} is no longer the 14-day-lagged target; review prepare.py")
    days = source.drop(columns=["rownames", _LEAKY])
    days["date"] = days["date"].astype(str)
    if not days["date"].map(lambda d: bool(_DATE.match(d))).all() or not days["date"].is_unique:
        raise DataError(f"{raw}: Chicago dates are not unique YYYY-MM-DD strings")
    features = [c for c in days.columns if c not in ("date", "ridership")]
    days = days[["date", *features, "ridership"]].sort_values("date")
    train, test = split_frame(days, comp.split)
    write_csv(train, public / "train.csv")
    write_csv(test.drop(columns="ridership"), public / "test.csv")
    write_csv(
        test[["date"]].assign(ridership=float(train["ridership"].mean())), public / "sample_submission.csv"
    )
    write_csv(test[["date", "ridership"]], private / "answers.csv")
