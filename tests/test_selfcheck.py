"""The self-check stage: answers must win gold, the sample submission nothing, or the pipeline stops."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
from embedded_fixtures import COMPETITIONS, Prepared

from mlebench.data.selfcheck import selfcheck
from mlebench_spec.declarations import load_competition


@pytest.fixture
def titanic_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Make a repository root with a copy of titanic-lite's folder whose leaderboard a test may rewrite."""
    shutil.copytree(COMPETITIONS / "titanic-lite", tmp_path / "competitions" / "titanic-lite")
    (tmp_path / "conf").mkdir()
    monkeypatch.setenv("MLEBENCH_ROOT", str(tmp_path))
    return tmp_path / "competitions" / "titanic-lite" / "leaderboard.csv"


def _leaderboard(path: Path, scores: list[float]) -> None:
    rows = [f"{i},team{i},{s}" for i, s in enumerate(sorted(scores, reverse=True), 1)]
    path.write_text("rank,team,score\n" + "\n".join(rows) + "\n")


def test_real_leaderboard_passes(titanic_copy: Path, prepare_once: Callable[[str], Prepared]) -> None:
    prepared = prepare_once("titanic-lite")
    results, failures = selfcheck(load_competition("titanic-lite"), prepared.public, prepared.private)
    assert failures == [] and results["ok"]
    assert results["answers"]["gold"] and not results["sample_submission"]["any_medal"]


def test_weak_leaderboard_fails_because_the_sample_submission_wins(
    titanic_copy: Path, prepare_once: Callable[[str], Prepared]
) -> None:
    _leaderboard(titanic_copy, [0.5 - i * 0.001 for i in range(40)])
    prepared = prepare_once("titanic-lite")
    _, failures = selfcheck(load_competition("titanic-lite"), prepared.public, prepared.private)
    assert len(failures) == 1 and "sample submission" in failures[0] and "too weak" in failures[0]


def test_perfect_leaderboard_fails_because_the_answers_do_not_win_gold(
    titanic_copy: Path, prepare_once: Callable[[str], Prepared]
) -> None:
    _leaderboard(titanic_copy, [1.01] * 10 + [0.9] * 30)  # gold needs 1.01: more than a perfect accuracy
    prepared = prepare_once("titanic-lite")
    _, failures = selfcheck(load_competition("titanic-lite"), prepared.public, prepared.private)
    assert any("does not reach the gold threshold" in f for f in failures), failures
