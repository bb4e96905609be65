"""Read a competition's leaderboard: the scores of the teams, best first."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd


def load_leaderboard(path: Path | str, higher_is_better: bool) -> list[float]:
    """Read the scores of a leaderboard CSV (at least a ``score`` column), best team first, NaN kept.

    The file must already be in rank order for the metric's direction; a row that beats the one above
    it means the file or the metric's direction is wrong, so it is an error rather than re-sorted.

    Raises
    ------
    FileNotFoundError
        If there is no file at ``path``.
    ValueError
        Naming the file, if it is empty, has no ``score`` column, holds a score that is not a number,
        or is not ordered best first.

    """
    path = Path(path)
    if not path.is_file():
        raise FileNotFoundError(f"leaderboard not found: {path}")
    try:
        table = pd.read_csv(path)
    except pd.errors.EmptyDataError:
        raise ValueError(f"{path}: the leaderboard file is empty") from None
    if "score" not in table.columns:
        raise ValueError(f"{path}: no 'score' column (columns: {', '.join(map(str, table.columns))})")
    if table.empty:
        raise ValueError(f"{path}: the leaderboard has no rows")
    scores = pd.to_numeric(table["score"], errors="coerce")
    unparsed = scores.isna() & table["score"].notna()
    if unparsed.any():
        row = int(np.flatnonzero(unparsed)[0])
        raise ValueError(f"{path}: score {table['score'].iloc[row]!r} in data row {row + 1} is not a number")
    values = scores.to_numpy(dtype=np.float64)
    rows = np.flatnonzero(~np.isnan(values))
    ranked = values[rows]
    worse_above = ranked[1:] > ranked[:-1] if higher_is_better else ranked[1:] < ranked[:-1]
    if worse_above.any():
        k = int(np.flatnonzero(worse_above)[0])
        direction = "higher" if higher_is_better else "lower"
        upper, lower = f"data row {rows[k] + 1} ({float(ranked[k])!r})", f"data row {rows[k + 1] + 1}"
        raise ValueError(
            f"{path}: not ordered best first for a {direction}-is-better metric: {lower} "
            f"({float(ranked[k + 1])!r}) beats {upper} above it; check the file's row order and the "
            "metric's direction"
        )
    return values.tolist()
