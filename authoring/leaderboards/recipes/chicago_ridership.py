"""chicago-ridership: holidays, calendar, and smoothed 14-day-lagged station ridership.

The station columns are other stations' ridership 14 days earlier, so they are known for every test day.
Holidays depress ridership on the day itself and, through the lag, show up in the station columns 14
days later; both are flagged.
"""

from __future__ import annotations

import pandas as pd
from pandas.tseries.holiday import USFederalHolidayCalendar

TEMPORAL = True

_WEATHER = ("temp", "percip", "weather_rain", "weather_snow")


def features(train: pd.DataFrame, test: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Engineered columns; rolling means look back only, over the train and test days in date order."""
    both = pd.concat([train, test], keys=["train", "test"])
    dates = pd.to_datetime(both["date"].astype(str), format="ISO8601")
    calendar = USFederalHolidayCalendar()
    holidays = set(calendar.holidays(dates.min() - pd.Timedelta(days=30), dates.max()))
    day = dates.dt.normalize()
    both["holiday"] = day.isin(holidays).astype("int64")
    both["holiday_lag14"] = (day - pd.Timedelta(days=14)).isin(holidays).astype("int64")
    both["holiday_near"] = sum((day + pd.Timedelta(days=k)).isin(holidays).astype("int64") for k in (-1, 1))
    both["christmas_week"] = ((dates.dt.month == 12) & (dates.dt.day >= 24)).astype("int64") | (
        (dates.dt.month == 1) & (dates.dt.day <= 1)
    ).astype("int64")
    thanksgiving = {h + pd.Timedelta(days=1) for h in holidays if h.month == 11 and h.day >= 22}
    both["black_friday"] = day.isin(thanksgiving).astype("int64")
    both["weekend"] = (dates.dt.dayofweek >= 5).astype("int64")
    stations = [c for c in train.columns if c[:1].isupper() and "_Away" not in c and "_Home" not in c]
    both["stations_mean"] = both[stations].mean(axis=1)
    both["stations_median"] = both[stations].median(axis=1)
    # train and test are each in date order and the test days follow the training days
    for window in (7, 28):
        both[f"stations_mean_roll{window}"] = (
            both["stations_mean"].rolling(window, min_periods=1).mean().to_numpy()
        )
    weekday = dates.dt.dayofweek.to_numpy()
    both["stations_weekday_median8"] = (
        both["stations_mean"].groupby(weekday).transform(lambda v: v.rolling(8, min_periods=1).median())
    )
    return both.loc["train"], both.loc["test"]
