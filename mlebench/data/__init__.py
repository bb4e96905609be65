"""Data: fetch raw files, prepare public/private splits, audit them for leaks, self-check the graders.

MLE-bench v1's data functions are data-layer functions here (:mod:`mlebench.data.v1_names`), so that
``from mlebench.data import download_and_prepare_dataset`` works as in v1 without this layer importing the
v1 face (:mod:`mlebench.registry`) above it.
"""

from mlebench.data.v1_names import (
    download_and_prepare_dataset,
    ensure_leaderboard_exists,
    get_leaderboard,
    is_dataset_prepared,
)

__all__ = [
    "download_and_prepare_dataset",
    "ensure_leaderboard_exists",
    "get_leaderboard",
    "is_dataset_prepared",
]
