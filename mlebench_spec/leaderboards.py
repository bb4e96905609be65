"""Where a competition's medal thresholds come from, and the check that its leaderboard is the pinned one.

A Kaggle competition keeps MLE-bench v1's ``leaderboard.csv`` in its folder (``competitions/<id>/``), byte
for byte: the declaration's ``v1.leaderboard`` records the file's Git-LFS pointer (sha256 and size), and
the thresholds are derived from the file, unrounded, by Kaggle's rules (:mod:`graders.medals`), as v1 does.
A competition whose v1 file is not available declares third-party thresholds instead (``medals:``, marked
``unverified`` with the reason). Embedded competitions ship our own reference leaderboards (no pointer).

States (:func:`threshold_state`):

``verified``
    thresholds derived from v1's leaderboard file, which matches its pointer;
``unverified``
    third-party thresholds declared in ``medals:``;
``leaderboard``
    derived from our own reference leaderboard (an embedded competition: v1 has none).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from mlebench_spec.declarations import Competition, declaration_path
from mlebench_spec.errors import ConfigError
from mlebench_spec.hashing import sha256_file

ThresholdState = Literal["verified", "unverified", "leaderboard"]


@cache
def _digest(path: Path, size: int, mtime_ns: int) -> str:
    return sha256_file(path)


def pinned_leaderboard(comp: Competition) -> Path:
    """Return the competition's leaderboard file, after checking it against the declared v1 pointer.

    A competition without a ``v1`` pointer (an embedded one) has nothing to check against. Raises
    ConfigError naming the file and the fix when the file is missing or its size or sha256 differ from the
    pointer. The hash is computed once per file version (size and modification time).
    """
    path = comp.leaderboard_path
    if not path.is_file():
        raise ConfigError(
            f"{path} is missing: {declaration_path(comp.id)} declares no medals: block, so its "
            "thresholds come from this leaderboard file; restore it (`mlebench thresholds -c "
            f"{comp.id} --v1-checkout PATH --write`)"
        )
    if comp.v1 is None:
        return path
    pin = comp.v1.leaderboard
    stat = path.stat()
    if stat.st_size != pin.size or _digest(path, stat.st_size, stat.st_mtime_ns) != pin.sha256:
        raise ConfigError(
            f"{path} is not MLE-bench v1's leaderboard: its size or sha256 differ from the pointer "
            f"{declaration_path(comp.id)} records (v1.leaderboard: {pin.size} bytes, sha256 {pin.sha256}); "
            f"restore it (`git checkout -- {path.name}` or `mlebench thresholds -c {comp.id} --v1-checkout "
            "PATH --write`)"
        )
    return path


def threshold_state(comp: Competition) -> ThresholdState:
    """Where ``comp``'s medal thresholds come from (see the module's docstring)."""
    if comp.medals is not None:
        return "unverified"
    pinned_leaderboard(comp)  # a file that does not match its pointer is an error, never "verified"
    return "verified" if comp.v1 is not None else "leaderboard"


__all__ = ["ThresholdState", "pinned_leaderboard", "threshold_state"]
