"""The scripted solution the LLM stand-in hands both LLM agents for titanic-lite.

Written for AIDE's workspace layout (data in ./input, predictions to ./working/submission.csv). A test runs
it by hand on the same prepared files and checks that the agents' graded score is what this code scores.
"""

import pandas as pd
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import cross_val_score

train = pd.read_csv("input/train.csv")
test = pd.read_csv("input/test.csv")


def features(df: pd.DataFrame) -> pd.DataFrame:
    title = df["Name"].str.extract(r",\s*([^.]+)\.", expand=False).fillna("none")
    out = pd.DataFrame(
        {
            "pclass": df["Pclass"],
            "female": (df["Sex"] == "female").astype(int),
            "age": df["Age"].fillna(train["Age"].median()),
            "age_missing": df["Age"].isna().astype(int),
            "sibsp": df["SibSp"],
            "parch": df["Parch"],
        }
    )
    for name in ("Mr", "Mrs", "Miss", "Master"):
        out[f"title_{name}"] = (title == name).astype(int)
    return out


model = LogisticRegression(C=1.0, max_iter=2000)
scores = cross_val_score(model, features(train), train["Survived"], cv=5, scoring="accuracy")
print(f"validation accuracy: {scores.mean():.4f}")
model.fit(features(train), train["Survived"])
submission = pd.DataFrame({"PassengerId": test["PassengerId"], "Survived": model.predict(features(test))})
submission.to_csv("working/submission.csv", index=False)
print(f"wrote {len(submission)} predictions")
