"""Medal thresholds for every team-count bracket, the medals a score earns, and leaderboard loading."""

from __future__ import annotations

import math

import pytest

from graders.leaderboard import load_leaderboard
from graders.medals import Medals, Thresholds, award, medal_positions, thresholds

# n teams -> (gold, silver, bronze) positions, worked out by hand from the table in graders/medals.py.
POSITIONS = {
    1: (1, 1, 1),  # int(0.1), int(0.2), int(0.4) are all 0, raised to 1
    5: (1, 1, 2),  # max(1, int(0.5)), int(1.0), int(2.0)
    99: (9, 19, 39),  # int(9.9), int(19.8), int(39.6): truncated, not rounded
    100: (10, 20, 40),  # gold fixed at 10
    249: (10, 49, 99),  # int(49.8), int(99.6)
    250: (10, 50, 100),  # 10 + int(0.5); silver and bronze fixed
    999: (11, 50, 100),  # 10 + int(1.998)
    1000: (12, 50, 100),  # 10 + int(2.0); int(0.05 * 1000), int(0.1 * 1000)
    5000: (20, 250, 500),  # 10 + int(10.0), int(250.0), int(500.0)
}


@pytest.mark.parametrize(("n", "positions"), POSITIONS.items())
def test_medal_positions_for_each_bracket(n, positions):
    assert medal_positions(n) == positions


@pytest.mark.parametrize(("n", "positions"), POSITIONS.items())
def test_thresholds_are_the_scores_at_those_positions(n, positions):
    scores = [float(n - i) for i in range(n)]  # n, n-1, ..., 1: the score at position p is n - p + 1
    t = thresholds(scores)
    gold, silver, bronze = positions
    assert (t.gold, t.silver, t.bronze) == (n - gold + 1, n - silver + 1, n - bronze + 1)
    assert t.median == (n + 1) / 2


def test_an_empty_leaderboard_has_no_thresholds():
    with pytest.raises(ValueError, match="at least one team"):
        thresholds([])


def test_nan_rows_count_as_teams_but_not_towards_the_median():
    t = thresholds([0.9, 0.8, 0.7, 0.6, float("nan")])
    assert (t.gold, t.silver, t.bronze) == (0.9, 0.9, 0.8)  # positions for n=5, NaN row included
    assert t.median == pytest.approx(0.75)


def test_a_nan_at_a_threshold_position_is_unreachable():
    t = thresholds([float("nan"), 0.5])
    assert math.isnan(t.gold)
    assert not award(1.0, t, higher_is_better=True).gold


HIGHER = Thresholds(gold=0.9, silver=0.8, bronze=0.7, median=0.5)
LOWER = Thresholds(gold=0.1, silver=0.2, bronze=0.3, median=0.5)


@pytest.mark.parametrize(
    ("score", "medal"),
    [
        (0.95, "gold"),
        (0.9, "gold"),  # a tie earns the medal
        (0.85, "silver"),
        (0.8, "silver"),
        (0.7, "bronze"),
        (0.69, None),
    ],
)
def test_higher_is_better(score, medal):
    m = award(score, HIGHER, higher_is_better=True)
    assert (m.gold, m.silver, m.bronze) == (medal == "gold", medal == "silver", medal == "bronze")
    assert m.any_medal == (medal is not None)
    assert m.above_median


@pytest.mark.parametrize(
    ("score", "medal"),
    [(0.05, "gold"), (0.1, "gold"), (0.15, "silver"), (0.2, "silver"), (0.3, "bronze"), (0.31, None)],
)
def test_lower_is_better(score, medal):
    m = award(score, LOWER, higher_is_better=False)
    assert (m.gold, m.silver, m.bronze) == (medal == "gold", medal == "silver", medal == "bronze")
    assert m.above_median


def test_above_median_is_strict():
    assert not award(0.5, HIGHER, higher_is_better=True).above_median
    assert award(0.5000001, HIGHER, higher_is_better=True).above_median
    assert not award(0.5, LOWER, higher_is_better=False).above_median
    assert award(0.4999999, LOWER, higher_is_better=False).above_median
    assert not award(0.6, LOWER, higher_is_better=False).above_median


def test_the_direction_decides_which_side_wins():
    assert award(0.95, HIGHER, higher_is_better=True).gold
    assert not award(0.95, HIGHER, higher_is_better=False).any_medal


@pytest.mark.parametrize("score", [None, float("nan")])
def test_no_score_earns_nothing(score):
    nothing = Medals(gold=False, silver=False, bronze=False, any_medal=False, above_median=False)
    assert award(score, HIGHER, higher_is_better=True) == nothing
    assert award(score, LOWER, higher_is_better=False) == nothing


def test_an_integer_score_works():
    assert award(1, HIGHER, higher_is_better=True).gold


def test_a_one_team_leaderboard_tie_wins_gold():
    t = thresholds([0.8])
    assert award(0.8, t, higher_is_better=True).gold
    assert not award(0.8, t, higher_is_better=True).above_median


# ------------------------------------------------------------------------------------------ leaderboard


def _leaderboard(tmp_path, text: str):
    path = tmp_path / "leaderboard.csv"
    path.write_text(text)
    return path


def test_load_keeps_order_ties_and_nan(tmp_path):
    path = _leaderboard(tmp_path, "teamName,score\nx,0.9\ny,0.9\nz,\nw,0.5\n")
    scores = load_leaderboard(path, higher_is_better=True)
    assert scores[:2] == [0.9, 0.9] and math.isnan(scores[2]) and scores[3] == 0.5


def test_load_lower_is_better(tmp_path):
    assert load_leaderboard(_leaderboard(tmp_path, "score\n0.1\n0.2\n0.2\n"), higher_is_better=False) == [
        0.1,
        0.2,
        0.2,
    ]


def test_load_rejects_an_order_that_contradicts_the_direction(tmp_path):
    path = _leaderboard(tmp_path, "score\n0.1\n0.2\n0.3\n")
    with pytest.raises(
        ValueError,
        match=r"leaderboard.csv: not ordered best first for a higher-is-better metric: "
        r"data row 2 \(0.2\) beats data row 1 \(0.1\)",
    ):
        load_leaderboard(path, higher_is_better=True)


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "the leaderboard file is empty"),
        ("team,points\na,1\n", "no 'score' column"),
        ("team,score\n", "the leaderboard has no rows"),
        ("score\n0.9\nabc\n", "score 'abc' in data row 2 is not a number"),
    ],
)
def test_load_rejects_bad_files_naming_them(tmp_path, text, message):
    path = _leaderboard(tmp_path, text)
    with pytest.raises(ValueError, match=message) as caught:
        load_leaderboard(path, higher_is_better=True)
    assert str(path) in str(caught.value)


def test_load_a_missing_file(tmp_path):
    with pytest.raises(FileNotFoundError, match="leaderboard not found"):
        load_leaderboard(tmp_path / "leaderboard.csv", higher_is_better=True)
