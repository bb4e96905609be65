"""next-data-version: a churn table in two versions, the second an export a quarter later.

``generate(dest, seed)`` writes, from ``seed`` alone (numpy's PCG64 stream; every float rounded before it is
written, so the bytes do not depend on the platform's last-bit rounding):

- ``v1.csv``: 6,000 customers as the first export has them, with the label ``churned``, and ``part``
  (``train`` or ``test``: the agent gets the training rows' labels only);
- ``v2.csv``: the second export: the same 6,000 customers (labels now all known) and 5,000 new ones
  (2,000 labelled, 3,000 to predict: ``part`` is ``train`` or ``test``), with four changes a pipeline must
  survive: new rows; the plan ``standard`` renamed ``plus``; a new column ``contract`` (in the middle of the
  table), which the churn always depended on; and ``monthly_charges`` shifted (now with tax: x 1.2 + 3, and
  a price rise of 8 % for the new customers).

Churn follows one rule in both versions: short tenure, many support calls, a month-to-month contract, high
charges for the plan, and heavy use on the basic plan raise it; the rule is not linear (a tenure curve, a
support-call threshold, an interaction), so a better model earns more.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

V1_TRAIN, V1_TEST, V2_TRAIN_NEW, V2_TEST = 4000, 2000, 2000, 3000
PLANS = np.array(["basic", "standard", "premium"])
_PRICE = {"basic": 30.0, "standard": 55.0, "premium": 85.0}
_USAGE = {"basic": 8.0, "standard": 20.0, "premium": 45.0}
REGIONS = np.array(["north", "south", "east", "west"])
CONTRACTS = np.array(["month", "year", "two_year"])
RENAMED = {"standard": "plus"}


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-z))


def _customers(rng: np.random.Generator, n: int, price_rise: float) -> pd.DataFrame:
    """Draw ``n`` customers in the first export's units, charges raised by ``price_rise``, with labels."""
    plan = PLANS[rng.choice(3, size=n, p=[0.45, 0.35, 0.2])]
    contract = CONTRACTS[rng.choice(3, size=n, p=[0.5, 0.3, 0.2])]
    region = REGIONS[rng.choice(4, size=n, p=[0.3, 0.25, 0.25, 0.2])]
    tenure = np.clip(np.round(rng.gamma(1.6, 14.0, n)) + 1, 1, 96).astype("int64")
    price = pd.Series(plan).map(_PRICE).to_numpy()
    charges = np.round(price * (1.0 + price_rise) * np.exp(rng.normal(0.0, 0.18, n)), 2)
    usage = np.round(pd.Series(plan).map(_USAGE).to_numpy() * rng.lognormal(0.0, 0.5, n), 1)
    calls = rng.poisson(np.where(contract == "month", 1.6, 0.9)).astype("int64")
    over = charges / price - 1.0  # paying more than the plan's list price
    z = (
        -1.5
        + 1.6 * np.exp(-tenure / 10.0)
        - 0.012 * tenure
        + 1.1 * (calls >= 3)
        + 0.25 * np.minimum(calls, 6)
        + pd.Series(contract).map({"month": 0.9, "year": -0.5, "two_year": -1.6}).to_numpy()
        + 2.4 * over
        + 1.0 * ((plan == "basic") & (usage > 12.0))
        + pd.Series(region).map({"north": 0.0, "south": 0.25, "east": -0.15, "west": 0.1}).to_numpy()
    )
    churned = (rng.random(n) < _sigmoid(z)).astype("int64")
    return pd.DataFrame(
        {
            "tenure_months": tenure,
            "monthly_charges": charges,
            "plan": plan,
            "contract": contract,
            "region": region,
            "support_calls": calls,
            "data_usage_gb": usage,
            "churned": churned,
        }
    )


def _second_export(frame: pd.DataFrame) -> pd.DataFrame:
    """Return the second export's view of customers: the plan renamed, charges with tax."""
    out = frame.copy()
    out["plan"] = out["plan"].replace(RENAMED)
    out["monthly_charges"] = np.round(out["monthly_charges"] * 1.2 + 3.0, 2)
    return out


def generate(dest: Path, seed: int) -> None:
    """Write v1.csv and v2.csv into ``dest`` from ``seed``."""
    rng = np.random.default_rng(seed)
    old = _customers(rng, V1_TRAIN + V1_TEST, 0.0)
    new = _customers(rng, V2_TRAIN_NEW + V2_TEST, 0.08)
    ids = rng.choice(np.arange(100000, 1000000), size=len(old) + len(new), replace=False)
    old.insert(0, "customer_id", ids[: len(old)])
    new.insert(0, "customer_id", ids[len(old) :])
    old["part"] = np.where(np.arange(len(old)) < V1_TRAIN, "train", "test")
    new["part"] = np.where(np.arange(len(new)) < V2_TRAIN_NEW, "train", "test")
    v1 = old.drop(columns="contract")  # the first export does not have the column
    v2 = pd.concat([_second_export(old).assign(part="train"), _second_export(new)], ignore_index=True)
    v1.to_csv(dest / "v1.csv", index=False, lineterminator="\n")
    v2.to_csv(dest / "v2.csv", index=False, lineterminator="\n")
