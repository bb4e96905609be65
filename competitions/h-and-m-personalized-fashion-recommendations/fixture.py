"""A small stand-in for Kaggle's H&M download: transactions, articles, customers, sample and images/."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, ranking
from authoring.kaggle_standin import image_bytes
from mlebench_spec.declarations import Competition, RealSize

_ARTICLE_COLUMNS = [
    "product_type_no", "product_type_name", "product_group_name", "graphical_appearance_no",
    "graphical_appearance_name", "colour_group_code", "colour_group_name", "perceived_colour_value_id",
    "perceived_colour_value_name", "perceived_colour_master_id", "perceived_colour_master_name",
    "department_no", "department_name", "index_code", "index_name", "index_group_no", "index_group_name",
    "section_no", "section_name", "garment_group_no", "garment_group_name",
]  # fmt: skip


def _articles(rng: np.random.Generator, n: int) -> pd.DataFrame:
    codes = np.sort(rng.choice(np.arange(108775, 959461), size=n, replace=False))
    frame = pd.DataFrame(
        {
            "article_id": [f"0{c}{rng.integers(1, 4):03d}" for c in codes],
            "product_code": [f"0{c}" for c in codes],
            "prod_name": [f"Item {c}" for c in codes],
        }
    )
    for column in _ARTICLE_COLUMNS:
        numeric = column.endswith(("_no", "_id", "_code")) and column != "index_code"
        frame[column] = rng.integers(1, 300, size=n) if numeric else rng.choice(["A", "B", "Other"], size=n)
    frame["detail_desc"] = "Soft jersey top."
    return frame


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write 30 days of transactions for 80 customers and 40 articles, plus the side files."""
    articles = _articles(rng, 40)
    articles.to_csv(dest / "articles.csv", index=False)
    customers = [rng.bytes(32).hex() for _ in range(80)]
    pd.DataFrame(
        {
            "customer_id": customers,
            "FN": rng.choice([1.0, np.nan], size=80),
            "Active": rng.choice([1.0, np.nan], size=80),
            "club_member_status": rng.choice(["ACTIVE", "PRE-CREATE"], size=80),
            "fashion_news_frequency": rng.choice(["NONE", "Regularly"], size=80),
            "age": rng.integers(16, 80, size=80),
            "postal_code": [rng.bytes(32).hex() for _ in range(80)],
        }
    ).to_csv(dest / "customers.csv", index=False)
    n = 700
    days = np.sort(rng.integers(0, 30, size=n))
    pd.DataFrame(
        {
            "t_dat": (np.datetime64("2020-08-24") + days.astype("timedelta64[D]")).astype(str),
            "customer_id": rng.choice(customers, size=n),
            "article_id": rng.choice(articles["article_id"], size=n),
            "price": rng.integers(5, 100, size=n) / 1180,
            "sales_channel_id": rng.integers(1, 3, size=n),
        }
    ).to_csv(dest / "transactions_train.csv", index=False)
    popular = " ".join(articles["article_id"][:12])
    pd.DataFrame({"customer_id": customers, "prediction": popular}).to_csv(
        dest / "sample_submission.csv", index=False
    )
    for article in articles["article_id"][:5]:
        (dest / "images" / article[:3]).mkdir(parents=True, exist_ok=True)
        (dest / "images" / article[:3] / f"{article}.jpg").write_bytes(image_bytes(rng, (6, 8)))


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: bought articles per customer, twelve ranked guesses."""
    articles = np.array([f"0{i:09d}" for i in range(100_000_000, 100_000_000 + size.classes)], dtype=object)
    return ranking(comp, size.test_rows, articles, (1, 20), 12, rng)
