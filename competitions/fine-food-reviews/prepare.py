"""fine-food-reviews: modeldata's small_fine_foods reviews; predict whether the score is "great"."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mlebench.data.prepare import read_rdata, write_csv
from mlebench.data.splitting import shuffled_ids
from mlebench_spec.declarations import Competition
from mlebench_spec.errors import DataError


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write train/test/sample submission to ``public`` and the answers to ``private`` (source split)."""
    parts = []
    for name, side in (("training_data", "train"), ("testing_data", "test")):
        part = read_rdata(raw / f"{name}.pkl.compress")
        unknown = set(part["score"]) - {"great", "other"}
        if unknown:
            raise DataError(f"{raw / name}: unexpected score values {sorted(unknown)}")
        parts.append(
            pd.DataFrame(
                {
                    "product": part["product"].astype(str).to_numpy(),
                    "review": part["review"].astype(str).to_numpy(),
                    "great": (part["score"] == "great").astype("int64").to_numpy(),
                    "side": side,
                }
            )
        )
    reviews = pd.concat(parts, ignore_index=True)
    reviews.insert(0, "id", shuffled_ids(len(reviews), comp.split.seed, start=1))
    reviews = reviews.sort_values("id")
    train = reviews[reviews["side"] == "train"].drop(columns="side")
    test = reviews[reviews["side"] == "test"].drop(columns="side")
    write_csv(train, public / "train.csv")
    write_csv(test[["id", "product", "review"]], public / "test.csv")
    write_csv(test[["id"]].assign(great=0.5), public / "sample_submission.csv")
    write_csv(test[["id", "great"]], private / "answers.csv")
