"""stream-change-points: every series is public; the change points of 20 are given, of 40 to find."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split the series into labelled (train) and hidden (test) ones; answers: space-separated positions."""
    stream = pd.read_csv(raw / "stream.csv")
    changes = pd.read_csv(raw / "changes.csv")
    ids = np.sort(stream["series_id"].unique())
    rng = np.random.default_rng(comp.split.seed)
    test_ids = np.sort(rng.choice(ids, comp.split.test_size, replace=False))
    positions = (
        changes.sort_values(["series_id", "position"])
        .groupby("series_id")["position"]
        .agg(lambda p: " ".join(str(int(v)) for v in p))
    )
    table = pd.DataFrame({"series_id": ids, "change_points": positions.reindex(ids).fillna("").to_numpy()})
    table["kinds"] = (
        changes.sort_values(["series_id", "position"])
        .groupby("series_id")["kind"]
        .agg(" ".join)
        .reindex(ids)
        .fillna("")
        .to_numpy()
    )
    test = table[table["series_id"].isin(test_ids)]
    train = table[~table["series_id"].isin(test_ids)]
    write_csv(stream, public / "stream.csv")
    write_csv(train, public / "train.csv")
    write_csv(test[["series_id"]], public / "test.csv")
    write_csv(test[["series_id"]].assign(change_points=""), public / "sample_submission.csv")
    write_csv(test, private / "answers.csv")
