"""mae_masked: MAE over answer rows whose mask column keeps them (v1's ventilator grader)."""

from __future__ import annotations

import math

import pandas as pd
import pytest

from graders.metrics.mae_masked import mae_masked

ANSWERS = pd.DataFrame({"u_out": ["0", "1", "0", "1"], "pressure": ["10", "20", "30", "40"]})


def test_only_kept_rows_count() -> None:
    pred = pd.DataFrame({"pressure": [11.0, 0.0, 27.0, 0.0]})  # |1| and |3| on kept rows; others ignored
    assert mae_masked(ANSWERS, pred, target_column="pressure", mask_column="u_out") == pytest.approx(2.0)


def test_perfect_on_kept_rows_is_zero_whatever_the_rest() -> None:
    pred = pd.DataFrame({"pressure": [10.0, 999.0, 30.0, -5.0]})
    assert mae_masked(ANSWERS, pred, target_column="pressure", mask_column="u_out") == 0.0


def test_other_keep_value() -> None:
    pred = pd.DataFrame({"pressure": [0.0, 21.0, 0.0, 38.0]})
    assert mae_masked(ANSWERS, pred, target_column="pressure", mask_column="u_out", keep_value=1) == 1.5


def test_no_kept_row_is_nan() -> None:
    answers = ANSWERS.assign(u_out="1")
    pred = pd.DataFrame({"pressure": [0.0] * 4})
    assert math.isnan(mae_masked(answers, pred, target_column="pressure", mask_column="u_out"))
