"""Helpers for metrics that take tables (``numeric_table`` and ``rle_table`` kinds; private).

``y_true`` is the answers frame in the answers' row order; ``y_pred`` holds the submitted columns in the
same row order, indexed by each row's position in the submission file, so a metric can pair rows by file
position as MLE-bench v1 does (the metric's own name) or by id (its ``_fixed`` sibling), see spec section 9.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .._threads import chunkwise


def tables(y_true: pd.DataFrame, y_pred: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Check that both tables are frames with the same, non-zero number of rows."""
    if not isinstance(y_true, pd.DataFrame) or not isinstance(y_pred, pd.DataFrame):
        raise TypeError("y_true and y_pred must be pandas DataFrames (see graders.kinds)")
    if len(y_true) != len(y_pred) or len(y_true) == 0:
        raise ValueError(
            f"y_true and y_pred need the same non-zero row count, got {len(y_true)}, {len(y_pred)}"
        )
    return y_true, y_pred


def floats(frame: pd.DataFrame, column: str) -> np.ndarray:
    """Return a column as float64 (blank cells and ``nan`` become NaN; other text is a ValueError)."""
    values = frame[column]
    if values.dtype == object or pd.api.types.is_string_dtype(values.dtype):
        try:  # Arrow parses plain numbers several times faster than pandas (13M icecube rows)
            texts = pa.array(values)  # zero-copy for pandas' Arrow-backed strings
            return chunkwise(lambda c: pc.cast(c, pa.float64()), [texts], np.float64)
        except (pa.ArrowInvalid, pa.ArrowTypeError, pa.ArrowNotImplementedError):  # blanks, padding, text
            values = pd.Series(values.to_numpy(dtype=object), dtype=object).str.strip()
            values = values.where(~values.str.lower().isin(["", "nan", "+nan", "-nan"]), np.nan)
    return pd.to_numeric(values).to_numpy(dtype=np.float64)


def in_file_order(y_pred: pd.DataFrame) -> pd.DataFrame:
    """Return the submitted rows in submission-file order (what v1 pairs with the answers by position)."""
    return y_pred.sort_index(kind="stable")
