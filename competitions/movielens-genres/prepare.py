"""movielens-genres: tag MovieLens films with their genres from titles, years and who rated them."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from mlebench.data.prepare import read_rdata, write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition
from mlebench_spec.errors import DataError

NO_GENRE = "(no genres listed)"


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Write films, ratings and a sample submission to ``public``, test films' genres to ``private``.

    Films without a genre are left out (nothing to predict).
    """
    ratings = read_rdata(raw / "movielens.pkl.compress")
    missing = {"movieId", "title", "year", "genres", "userId", "rating", "timestamp"} - set(ratings.columns)
    if missing:
        raise DataError(f"{raw / 'movielens.pkl.compress'}: columns {sorted(missing)} are missing")
    films = ratings.drop_duplicates("movieId")[["movieId", "title", "year", "genres"]]
    films = films[films["genres"].astype(str) != NO_GENRE].sort_values("movieId").reset_index(drop=True)
    tags = films["genres"].astype(str).str.get_dummies(sep="|")
    columns = list(comp.submission.target_columns)
    if set(tags.columns) != set(columns):
        raise DataError(
            f"{raw}: the genres are {sorted(tags.columns)}, the declaration's columns {sorted(columns)}"
        )
    table = pd.DataFrame(
        {
            "movieId": films["movieId"].astype("int64").to_numpy(),
            "title": films["title"].astype(str).to_numpy(),
            "year": films["year"].astype("Int64").array,
        }
    )
    table = pd.concat([table, tags[columns].astype("int64")], axis=1)
    train, test = split_frame(table, comp.split)
    kept = ratings[ratings["movieId"].isin(table["movieId"])]
    interactions = pd.DataFrame(
        {
            "userId": kept["userId"].astype("int64").to_numpy(),
            "movieId": kept["movieId"].astype("int64").to_numpy(),
            "rating": kept["rating"].astype("float64").to_numpy(),
            "timestamp": kept["timestamp"].astype("int64").to_numpy(),
        }
    ).sort_values(["userId", "timestamp", "movieId"], kind="stable")
    write_csv(train, public / "train.csv")
    write_csv(test[["movieId", "title", "year"]], public / "test.csv")
    write_csv(interactions, public / "ratings.csv")
    write_csv(test[["movieId"]].assign(**{c: 0.5 for c in columns}), public / "sample_submission.csv")
    write_csv(test[["movieId", *columns]], private / "answers.csv")
