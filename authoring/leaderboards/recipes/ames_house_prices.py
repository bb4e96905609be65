"""ames-house-prices: sizes, ages, ordinal conditions and neighbourhood price encodings."""

from __future__ import annotations

import numpy as np
import pandas as pd

ENCODE = ("Neighborhood", "MS_SubClass", "Area")

_GRADES = {
    "Very_Poor": 1, "Poor": 2, "Fair": 3, "Below_Average": 4, "Average": 5, "Typical": 5,
    "Above_Average": 6, "Good": 7, "Very_Good": 8, "Excellent": 9, "Very_Excellent": 10,
}  # fmt: skip
_EXPOSURE = {"No_Basement": 0, "No": 1, "Mn": 2, "Av": 3, "Gd": 4}
_FINISH = {"No_Basement": 0, "Unf": 1, "LwQ": 2, "Rec": 3, "BLQ": 4, "ALQ": 5, "GLQ": 6}


def _one(frame: pd.DataFrame) -> pd.DataFrame:
    d = frame.copy()
    for name in ("Overall_Cond", "Exter_Cond", "Bsmt_Cond", "Heating_QC", "Garage_Cond", "Pool_QC"):
        d[f"{name}_grade"] = d[name].map(_GRADES)
    d["Bsmt_Exposure_grade"] = d["Bsmt_Exposure"].map(_EXPOSURE)
    d["BsmtFin_Type_1_grade"] = d["BsmtFin_Type_1"].map(_FINISH)
    d["Total_SF"] = d["Total_Bsmt_SF"] + d["Gr_Liv_Area"]
    d["Baths"] = d["Full_Bath"] + 0.5 * d["Half_Bath"] + d["Bsmt_Full_Bath"] + 0.5 * d["Bsmt_Half_Bath"]
    d["Age"] = d["Year_Sold"] - d["Year_Built"]
    d["Remod_Age"] = d["Year_Sold"] - d["Year_Remod_Add"]
    d["Remodelled"] = (d["Year_Remod_Add"] != d["Year_Built"]).astype("int64")
    d["New"] = (d["Year_Sold"] == d["Year_Built"]).astype("int64")
    porches = ["Open_Porch_SF", "Enclosed_Porch", "Three_season_porch", "Screen_Porch", "Wood_Deck_SF"]
    d["Porch_SF"] = d[porches].sum(axis=1)
    d["SF_per_room"] = d["Gr_Liv_Area"] / d["TotRms_AbvGrd"].clip(lower=1)
    d["Garage_per_car"] = d["Garage_Area"] / d["Garage_Cars"].clip(lower=1)
    d["Sold"] = d["Year_Sold"] + (d["Mo_Sold"] - 1) / 12
    for name in ("Lot_Area", "Gr_Liv_Area", "Total_SF", "First_Flr_SF", "Lot_Frontage", "Mas_Vnr_Area"):
        d[f"log_{name}"] = np.log1p(d[name].clip(lower=0))
    # A coarse location grid (about 1 km cells): a neighbourhood key finer than Neighborhood.
    d["Area"] = (d["Longitude"].round(2).astype(str) + "_" + d["Latitude"].round(2).astype(str)).astype(
        object
    )
    return d


def features(train: pd.DataFrame, test: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Row-wise engineered columns (no answers involved)."""
    return _one(train), _one(test)
