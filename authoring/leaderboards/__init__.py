"""Reference leaderboards for embedded competitions, built from populations of real trained models.

Embedded competitions have no Kaggle leaderboard. :func:`build_leaderboard` trains a varied population of
reference solutions on a competition's public training split, scores their test predictions with the
competition's own grader, and writes ``competitions/<id>/leaderboard.csv`` and ``leaderboard.md``; the
medal thresholds that follow are scores of real models.
"""

from __future__ import annotations

from authoring.leaderboards.build import (
    COLUMNS,
    LeaderboardError,
    build_leaderboard,
    build_leaderboards,
    leaderboard_frame,
)
from authoring.leaderboards.solution import Solution, solution

__all__ = [
    "COLUMNS",
    "LeaderboardError",
    "Solution",
    "build_leaderboard",
    "build_leaderboards",
    "leaderboard_frame",
    "solution",
]
