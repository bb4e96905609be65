"""titanic-lite: titles, surnames and family groups from the names; family size; age bands."""

from __future__ import annotations

import pandas as pd

# Family groups are target-encoded (cross-fitted): the survival of the other members of a family.
ENCODE = ("Surname", "Family")

_TITLES = {
    "Mr": "Mr", "Mrs": "Mrs", "Miss": "Miss", "Master": "Master", "Ms": "Miss", "Mlle": "Miss",
    "Mme": "Mrs", "Dr": "Officer", "Rev": "Clergy", "Col": "Officer", "Major": "Officer", "Capt": "Officer",
}  # fmt: skip


def _title(name: str) -> str:
    rest = name.split(",", 1)[1] if "," in name else name
    word = rest.strip().split(".")[0].split()[-1] if "." in rest else ""
    return _TITLES.get(word, "Noble")


def features(train: pd.DataFrame, test: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Engineered columns; surname counts cover the train and test passengers together."""
    both = pd.concat([train, test], keys=["train", "test"])
    names = both["Name"].astype(str)
    both["Surname"] = names.str.split(",").str[0].str.strip().astype(object)
    both["Title"] = names.map(_title).astype(object)
    both["Family_size"] = both["SibSp"] + both["Parch"] + 1
    both["Alone"] = (both["Family_size"] == 1).astype("int64")
    both["Family"] = (both["Surname"] + "_" + both["Family_size"].astype(str)).astype(object)
    both["Surname_count"] = both.groupby("Surname")["Surname"].transform("size")
    both["Family_count"] = both.groupby("Family")["Family"].transform("size")
    both["Maiden_name"] = names.str.contains(r"\(", regex=True).astype("int64")
    both["Name_length"] = names.str.len()
    both["Age_missing"] = both["Age"].isna().astype("int64")
    both["Child"] = (both["Age"] < 14).astype("int64")
    both["Woman_or_child"] = ((both["Sex"] == "female") | (both["Title"] == "Master")).astype("int64")
    both["Class_sex"] = (both["Pclass"].astype(str) + "_" + both["Sex"].astype(str)).astype(object)
    both = both.drop(columns=["Name"])
    return both.loc["train"], both.loc["test"]
