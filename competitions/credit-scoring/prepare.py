"""credit-scoring: modeldata::credit_data; predict whether an applicant's credit turns out bad."""

from __future__ import annotations

from pathlib import Path

from mlebench.data.prepare import read_rdata, write_csv
from mlebench.data.splitting import shuffled_ids, split_frame
from mlebench_spec.declarations import Competition
from mlebench_spec.errors import DataError


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write train/test/sample submission to ``public`` and the answers to ``private``."""
    credit = read_rdata(raw / "credit_data.pkl.compress").drop(columns="rownames")
    unknown = set(credit["Status"]) - {"good", "bad"}
    if unknown:
        raise DataError(f"{raw}: unexpected Status values {sorted(map(str, unknown))}")
    features = [c for c in credit.columns if c != "Status"]
    credit = credit[features].assign(bad=(credit["Status"] == "bad").astype("int64"))
    credit.insert(0, "id", shuffled_ids(len(credit), comp.split.seed, start=1))
    train, test = split_frame(credit, comp.split)
    train = train.sort_values("id")
    test = test.sort_values("id")
    write_csv(train, public / "train.csv")
    write_csv(test.drop(columns="bad"), public / "test.csv")
    write_csv(test[["id"]].assign(bad=0.5), public / "sample_submission.csv")
    write_csv(test[["id", "bad"]], private / "answers.csv")
