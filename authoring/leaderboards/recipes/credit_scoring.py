"""credit-scoring: loan-to-value, burden and wealth ratios, and missing-value indicators."""

from __future__ import annotations

import numpy as np
import pandas as pd


def _one(frame: pd.DataFrame) -> pd.DataFrame:
    d = frame.copy()
    for name in ("Income", "Assets", "Debt", "Home", "Job"):
        d[f"{name}_missing"] = d[name].isna().astype("int64")
    d["Loan_to_value"] = d["Amount"] / d["Price"].clip(lower=1)
    d["Installment"] = d["Amount"] / d["Time"].clip(lower=1)
    d["Installment_to_income"] = d["Installment"] / d["Income"].clip(lower=1)
    d["Expenses_to_income"] = d["Expenses"] / d["Income"].clip(lower=1)
    d["Free_income"] = d["Income"] - d["Expenses"] - d["Installment"]
    d["Net_worth"] = d["Assets"].fillna(0) - d["Debt"].fillna(0)
    d["Debt_to_assets"] = d["Debt"] / d["Assets"].clip(lower=1)
    d["Amount_to_assets"] = d["Amount"] / (d["Assets"].fillna(0) + 1)
    d["Seniority_share"] = d["Seniority"] / d["Age"].clip(lower=1)
    d["Age_started"] = d["Age"] - d["Seniority"]
    d["log_Assets"] = np.log1p(d["Assets"].clip(lower=0))
    d["log_Income"] = np.log1p(d["Income"].clip(lower=0))
    return d


def features(train: pd.DataFrame, test: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Row-wise engineered columns (no answers involved)."""
    return _one(train), _one(test)
