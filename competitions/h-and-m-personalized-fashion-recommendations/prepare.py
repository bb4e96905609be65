"""h-and-m-personalized-fashion-recommendations: v1 splits transactions_train.csv by time.

Transactions with t_dat >= max(t_dat) - 7 days (the last 8 days) are the test window; the rest are
written back to public/transactions_train.csv (pandas reads article_id as an integer, so the leading zero
is lost). private/answers.csv has one row per customer who bought in the window (sorted by customer_id)
with the space-joined article ids bought, in file order. Kaggle's sample_submission.csv, articles.csv,
customers.csv and images/ are copied unchanged: the sample lists every customer, and the grader drops the
rows of customers who bought nothing in the window (``submission.extra_ids: ignore``), as v1 scores only the
answers' customers.

The transactions file is several GB: it is read twice in chunks (once for the last date), and only the
test window is held in memory.
"""

import shutil
from collections.abc import Iterator
from pathlib import Path

import pandas as pd

from mlebench_spec.declarations import Competition

CHUNK_ROWS = 2_000_000


def _chunks(raw: Path, **kwargs) -> Iterator[pd.DataFrame]:
    yield from pd.read_csv(raw / "transactions_train.csv", chunksize=CHUNK_ROWS, **kwargs)


def _window_start(raw: Path) -> str:
    last = max(pd.to_datetime(chunk["t_dat"]).max() for chunk in _chunks(raw, usecols=["t_dat"]))
    return (last - pd.Timedelta(days=7)).strftime("%Y-%m-%d")


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Split the transactions at the last 8 days, write the answers and copy Kaggle's side files."""
    start = _window_start(raw)
    window = []
    for number, chunk in enumerate(_chunks(raw)):
        in_test = pd.to_datetime(chunk["t_dat"]) >= pd.Timestamp(start)
        chunk[~in_test].to_csv(public / "transactions_train.csv", index=False, mode="a", header=number == 0)
        window.append(chunk[in_test])
    test = pd.concat(window)
    answers = test.groupby("customer_id")["article_id"].agg(lambda ids: " ".join(map(str, ids)))
    answers = answers.rename("prediction").reset_index()
    answers.to_csv(private / "answers.csv", index=False)
    for name in ("sample_submission.csv", "articles.csv", "customers.csv"):
        shutil.copyfile(raw / name, public / name)
    if (raw / "images").is_dir():
        shutil.copytree(raw / "images", public / "images")
