"""Load and score the golden cases in ``cases/<metric>.json`` for the table and array metrics of family B."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd

from graders.registry import get_metric

CASES = Path(__file__).parent / "cases"


def load(metric: str) -> list[dict]:
    """Return the cases of one metric, each with its ``name``."""
    return json.loads((CASES / f"{metric}.json").read_text())["cases"]


def score(metric: str, case: dict) -> float:
    """Score one case: table metrics get frames (``pred_index`` = submission file rows), others arrays.

    A case may name the registered metric it scores (``"metric"``: a ``_fixed`` sibling); else ``metric``.
    """
    metric = case.get("metric", metric)
    fn = get_metric(metric).fn
    if get_metric(metric).kind.name in ("rle_mask",):
        return fn(
            np.array(case["y_true"], dtype=object), np.array(case["y_pred"], dtype=object), **case["args"]
        )
    y_true = pd.DataFrame({k: [str(v) for v in vs] for k, vs in case["y_true"].items()})
    y_pred = pd.DataFrame(case["y_pred"], index=case["pred_index"])
    return fn(y_true, y_pred, **case["args"])


def expected(case: dict) -> float:
    """Return the expected score; ``null`` in the file means NaN, ``"-inf"`` minus infinity."""
    value = case["expected"]
    return math.nan if value is None else float(value)


def check(metric: str, case: dict) -> None:
    """Assert that the metric reproduces the case's expected score to 1e-12."""
    got, want = score(metric, case), expected(case)
    if math.isnan(want):
        assert math.isnan(got)
    elif math.isinf(want):
        assert got == want
    else:
        assert abs(got - want) <= 1e-12, (got, want)
