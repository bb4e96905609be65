"""The scripted solution the LLM stand-in hands both LLM agents for chicago-ridership.

Written for AIDE's workspace layout (data in ./input, predictions to ./working/submission.csv).
"""

import pandas as pd
from sklearn.linear_model import Ridge
from sklearn.metrics import mean_absolute_error

train = pd.read_csv("input/train.csv", parse_dates=["date"])
test = pd.read_csv("input/test.csv", parse_dates=["date"])


def features(df: pd.DataFrame) -> pd.DataFrame:
    out = df.drop(columns=["date", "ridership"], errors="ignore").fillna(0.0)
    for day in range(7):
        out[f"weekday_{day}"] = (df["date"].dt.day_of_week == day).astype(float)
    for month in range(1, 13):
        out[f"month_{month}"] = (df["date"].dt.month == month).astype(float)
    out["year"] = df["date"].dt.year - 2000
    return out


model = Ridge(alpha=1.0)
fit, hold = train.iloc[:-365], train.iloc[-365:]
model.fit(features(fit), fit["ridership"])
print(f"validation mae: {mean_absolute_error(hold['ridership'], model.predict(features(hold))):.4f}")
model.fit(features(train), train["ridership"])
predictions = model.predict(features(test))
submission = pd.DataFrame({"date": test["date"].dt.strftime("%Y-%m-%d"), "ridership": predictions})
submission.to_csv("working/submission.csv", index=False)
print(f"wrote {len(submission)} predictions")
