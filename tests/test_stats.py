"""Leaderboard statistics, checked against a small case computed by hand (MLE-bench v1's aggregation).

Agent x, any-medal by seed (— = not graded):

    competition  complexity  seed 0  seed 1  seed 2
    a            low         T       F       T
    b            low         F       F       T
    c            low         T       —       F
    d            medium      T       T       F

MLE-bench builds seed i from the i-th entry of each competition, so c's entries are [seed 0, seed 2].
Without padding a split has as many seeds as its least-graded competition:

    low:    seed 0 = a0 b0 c0 = 2/3 → 66.67;  seed 1 = a1 b1 c2 = 0/3 → 0        ⇒ 33.33 ± 33.33
    all:    seed 0 = 3/4 → 75;  seed 1 = a1 b1 c2 d1 = 1/4 → 25                   ⇒ 50.00 ± 25.00
    medium: 100, 100, 0                                                            ⇒ 66.67 ± 33.33

With padding, as many as its most-graded one, the absent entry failing:

    low:    66.67, 0, (a2 b2 + c padded) 2/3 → 66.67                              ⇒ 44.44 ± 22.22
    all:    75, 25, (a2 b2 d2 + c padded) 2/4 → 50                                ⇒ 50.00 ± 14.43

SEM = sample standard deviation (ddof 1) / sqrt(n).
"""

from __future__ import annotations

import math

import pytest

from mlebench.reporting.report import ReportData, aggregate
from mlebench.reporting.stats import agent_figures, leaderboard_row, split_figures

MEDALS = {
    "a": {0: True, 1: False, 2: True},
    "b": {0: False, 1: False, 2: True},
    "c": {0: True, 2: False},
    "d": {0: True, 1: True, 2: False},
}
COMPLEXITY = {"a": "low", "b": "low", "c": "low", "d": "medium"}


def _record(cid: str, seed: int, medal: bool) -> dict:
    flags = ("any_medal", "gold_medal", "above_median")
    return {
        "agent": "x",
        "competition_id": cid,
        "seed": seed,
        "status": "ok",
        "score": 1.0,
        **{k: medal for k in flags},
        **{k: False for k in ("silver_medal", "bronze_medal")},
        "valid_submission": True,
        "submission_exists": True,
        **{f"{t}_threshold": 1.0 for t in ("gold", "silver", "bronze", "median")},
        "is_lower_better": False,
        "reason": "",
        "isolation": "isolated",
    }


RECORDS = [_record(c, s, m) for c, seeds in MEDALS.items() for s, m in seeds.items()]


def _any(figures: dict, split: str) -> tuple[float, float]:
    metric = figures[split]["metrics"]["any_medal"]
    return metric["mean"], metric["sem"]


def test_complete_seeds_by_hand() -> None:
    figures = agent_figures(RECORDS, "x", COMPLEXITY, list(MEDALS))
    assert set(figures) == {"low", "medium", "all"}
    assert figures["low"]["seeds"] == 2 and figures["low"]["padded_entries"] == 0
    assert figures["low"]["metrics"]["any_medal"]["per_seed"] == pytest.approx([200 / 3, 0.0])
    assert _any(figures, "low") == pytest.approx((100 / 3, 100 / 3))
    assert figures["all"]["metrics"]["any_medal"]["per_seed"] == pytest.approx([75.0, 25.0])
    assert _any(figures, "all") == pytest.approx((50.0, 25.0))
    assert _any(figures, "medium") == pytest.approx((200 / 3, 100 / 3))
    low, high = figures["all"]["metrics"]["any_medal"]["ci95"]
    assert (low, high) == pytest.approx((50 - 1.96 * 25, 50 + 1.96 * 25))
    assert (
        leaderboard_row(figures)
        == "Low (Lite) 33.33 ± 33.33 | Medium 66.67 ± 33.33 | High – | All 50.00 ± 25.00"
    )


def test_padded_seeds_by_hand() -> None:
    figures = agent_figures(RECORDS, "x", COMPLEXITY, list(MEDALS), pad_missing=True)
    assert figures["low"]["seeds"] == 3 and figures["low"]["padded_entries"] == 1
    assert figures["low"]["metrics"]["any_medal"]["per_seed"] == pytest.approx([200 / 3, 0.0, 200 / 3])
    assert _any(figures, "low") == pytest.approx((400 / 9, 200 / 9))
    assert figures["all"]["metrics"]["any_medal"]["per_seed"] == pytest.approx([75.0, 25.0, 50.0])
    assert _any(figures, "all") == pytest.approx((50.0, 25.0 / math.sqrt(3)))
    assert _any(figures, "medium") == pytest.approx((200 / 3, 100 / 3))  # complete: padding changes nothing


def test_entries_align_by_position_not_seed_number() -> None:
    """MLE-bench pairs the i-th entries: c's seed 2 joins the others' seed 1 (seed numbers would differ)."""
    entries = {
        "a": [_record("a", 0, True), _record("a", 1, False)],
        "c": [_record("c", 0, True), _record("c", 2, True)],
    }
    assert split_figures(entries, ["a", "c"])["metrics"]["any_medal"]["per_seed"] == [100.0, 50.0]


def test_a_competition_without_entries_gives_no_seed_unless_padded() -> None:
    entries = {"a": [_record("a", 0, True)], "b": []}
    plain = split_figures(entries, ["a", "b"])
    assert plain["seeds"] == 0 and plain["missing"] == ["b"] and plain["metrics"]["any_medal"]["mean"] is None
    padded = split_figures(entries, ["a", "b"], pad_missing=True)
    assert padded["seeds"] == 1 and padded["metrics"]["any_medal"]["mean"] == 50.0
    assert padded["metrics"]["any_medal"]["sem"] is None  # one seed: MLE-bench's scipy sem is NaN


def test_the_report_carries_the_split_figures_and_marks_padding() -> None:
    ids = list(MEDALS)
    report = aggregate(
        ReportData(
            RECORDS,
            ["x"],
            ids,
            [0, 1, 2],
            "mine",
            COMPLEXITY,
            pad_missing=True,
            declared={"low": 22, "medium": 38, "high": 15, "all": 75, "embedded": 9},
        )
    )
    groups = report["agents"]["x"]["groups"]
    assert list(groups) == ["mine", "low", "medium", "all"]
    assert groups["low"]["metrics"]["any_medal"]["mean"] == pytest.approx(400 / 9)
    assert groups["low"]["padded_entries"] == 1 and groups["low"]["incomplete_seeds"] == [1]
    assert report["groups"]["all"] == {"kind": "split", "members": ids, "declared": 75}
    assert report["pad_missing"] and "padded" in report["method"]
