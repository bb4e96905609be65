"""Data: fetch raw files, prepare public/private splits, audit them for leaks, self-check the graders.

MLE-bench v1's data functions are data-layer functions here (:mod:`mlebench.data.v1_names`), so that
``from mlebench.data import download_and_prepare_dataset`` works as in v1 without this layer importing the
v1 face (:mod:`mlebench.registry`) above it. They are loaded on first use, by name: importing the package
for one of its modules (a stage that needs only ``mlebench.data.notebooks``) must not load fetch, prepare and
the graders, or every such stage would list them among its DVC deps and re-run when a grader changes.
"""

from importlib import import_module
from typing import Any

__all__ = [
    "create_prepared_dir",
    "download_and_prepare_dataset",
    "download_dataset",
    "ensure_leaderboard_exists",
    "generate_checksums",
    "get_checksum",
    "get_leaderboard",
    "is_dataset_prepared",
]


def __getattr__(name: str) -> Any:
    """Return one of v1's data functions from :mod:`mlebench.data.v1_names` (PEP 562)."""
    if name in __all__:
        return getattr(import_module("mlebench.data.v1_names"), name)
    raise AttributeError(f"module 'mlebench.data' has no attribute {name!r}")
