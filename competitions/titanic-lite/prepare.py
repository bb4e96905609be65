"""titanic-lite: passenger table from vcdExtra::Titanicp, names from carData::TitanicSurvival (same rows)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mlebench.data.prepare import read_rdata, write_csv
from mlebench.data.splitting import shuffled_ids, split_frame
from mlebench_spec.declarations import Competition
from mlebench_spec.errors import DataError


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write train/test/sample submission to ``public`` and the answers to ``private``."""
    people = read_rdata(raw / "Titanicp.pkl.compress")
    names = read_rdata(raw / "TitanicSurvival.pkl.compress")
    same_age = (people["age"] == names["age"]) | (people["age"].isna() & names["age"].isna())
    if len(people) != len(names) or not ((people["sex"] == names["sex"]) & same_age).all():
        raise DataError(f"{raw}: Titanicp and TitanicSurvival rows no longer line up (sex/age differ)")
    frame = pd.DataFrame(
        {
            "PassengerId": shuffled_ids(len(people), comp.split.seed, start=1),
            "Name": names["rownames"].astype(str).to_numpy(),
            "Pclass": people["pclass"].map({"1st": 1, "2nd": 2, "3rd": 3}).astype("int64").to_numpy(),
            "Sex": people["sex"].astype(str).to_numpy(),
            "Age": people["age"].astype("float64").to_numpy(),
            "SibSp": people["sibsp"].astype("int64").to_numpy(),
            "Parch": people["parch"].astype("int64").to_numpy(),
            "Survived": people["survived"].map({"survived": 1, "died": 0}).astype("int64").to_numpy(),
        }
    )
    train, test = split_frame(frame, comp.split)
    train = train.sort_values("PassengerId")
    test = test.sort_values("PassengerId")
    write_csv(train, public / "train.csv")
    write_csv(test.drop(columns="Survived"), public / "test.csv")
    write_csv(test.assign(Survived=0)[["PassengerId", "Survived"]], public / "sample_submission.csv")
    write_csv(test[["PassengerId", "Survived"]], private / "answers.csv")
