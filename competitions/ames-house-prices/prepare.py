"""ames-house-prices: modeldata::ames, one row per sale, target Sale_Price (US dollars)."""

from __future__ import annotations

from pathlib import Path

from mlebench.data.prepare import read_rdata, write_csv
from mlebench.data.splitting import shuffled_ids, split_frame
from mlebench_spec.declarations import Competition


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write train/test/sample submission to ``public`` and the answers to ``private``."""
    sales = read_rdata(raw / "ames.pkl.compress").drop(columns="rownames")
    features = [c for c in sales.columns if c != "Sale_Price"]
    sales.insert(0, "Id", shuffled_ids(len(sales), comp.split.seed, start=1))
    sales = sales[["Id", *features, "Sale_Price"]]
    train, test = split_frame(sales, comp.split)
    train = train.sort_values("Id")
    test = test.sort_values("Id")
    write_csv(train, public / "train.csv")
    write_csv(test.drop(columns="Sale_Price"), public / "test.csv")
    write_csv(
        test[["Id"]].assign(Sale_Price=float(train["Sale_Price"].mean())), public / "sample_submission.csv"
    )
    write_csv(test[["Id", "Sale_Price"]], private / "answers.csv")
