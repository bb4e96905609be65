"""Aggregation: any-medal % per seed, mean ± SEM over complete seeds, status counts."""

from __future__ import annotations

import math

import pytest

from mlebench.reporting.html import to_html
from mlebench.reporting.report import ReportData, aggregate, headline, mean_sem, to_markdown


def _rec(agent: str, cid: str, seed: int, medal: bool, status: str = "ok") -> dict:
    return {
        "agent": agent,
        "competition_id": cid,
        "seed": seed,
        "status": status,
        "score": 1.0,
        "any_medal": medal,
        "gold_medal": medal,
        "silver_medal": False,
        "bronze_medal": False,
        "above_median": medal,
        "valid_submission": status == "ok",
        "submission_exists": True,
        "gold_threshold": 1.0,
        "silver_threshold": 0.9,
        "bronze_threshold": 0.8,
        "median_threshold": 0.5,
        "reason": "",
        "isolation": "isolated",
    }


def test_sem_is_sample_std_over_sqrt_n() -> None:
    mean, sem = mean_sem([0.0, 50.0, 100.0])
    assert mean == 50.0
    assert sem == pytest.approx(50.0 / math.sqrt(3))


def test_any_medal_percentage_over_complete_seeds_only() -> None:
    comps = ["a", "b"]
    records = [
        _rec("x", "a", 0, True),
        _rec("x", "b", 0, False),  # seed 0: 50 %
        _rec("x", "a", 1, True),
        _rec("x", "b", 1, True),  # seed 1: 100 %
        _rec("x", "a", 2, True),
    ]  # seed 2 incomplete
    report = aggregate(
        ReportData(records, ["x"], comps, [0, 1, 2], "set", {"a": "embedded", "b": "embedded"})
    )
    group = report["agents"]["x"]["groups"]["set"]
    assert group["complete_seeds"] == [0, 1] and group["incomplete_seeds"] == [2]
    assert group["metrics"]["any_medal"]["per_seed"] == [50.0, 100.0]
    assert group["metrics"]["any_medal"]["mean"] == 75.0
    assert group["metrics"]["any_medal"]["sem"] == pytest.approx(25.0)
    assert headline(report)["x"]["set"]["any_medal_pct"] == 75.0
    assert "75.0 ± 25.0" in to_markdown(report)


def test_status_counts_and_complexity_groups() -> None:
    records = [_rec("x", "a", 0, False, "invalid_submission"), _rec("x", "b", 0, True, "agent_timeout")]
    report = aggregate(ReportData(records, ["x"], ["a", "b"], [0], "all", {"a": "low", "b": "high"}))
    entry = report["agents"]["x"]
    assert entry["status_counts"]["invalid_submission"] == 1 and entry["status_counts"]["agent_timeout"] == 1
    assert set(entry["groups"]) == {"all", "low", "high"}  # the set `all` is the split all: listed once
    assert entry["groups"]["high"]["metrics"]["any_medal"]["mean"] == 100.0
    assert entry["groups"]["all"]["metrics"]["any_medal"]["sem"] is None  # one seed: MLE-bench's NaN


def test_competitions_with_known_leaks_are_marked_next_to_their_scores() -> None:
    records = [_rec("x", "a", 0, True), _rec("x", "b", 0, False)]
    leaks = {"a": ["public/test.json keeps the giver's name"], "b": []}
    report = aggregate(ReportData(records, ["x"], ["a", "b"], [0], "set", {"a": "low", "b": "low"}, leaks))
    assert report["leaks"] == {"a": ["public/test.json keeps the giver's name"]}
    text = to_markdown(report)
    assert "| x | a (known leak) | 0 |" in text and "| x | b | 0 |" in text
    assert "- `a`: public/test.json keeps the giver's name" in text


def test_each_split_says_how_many_thresholds_are_verified() -> None:
    records = [_rec("x", c, 0, False) for c in "abcd"]
    complexity = {"a": "low", "b": "low", "c": "high", "d": "embedded"}
    states = {"a": "verified", "b": "unverified", "c": "unverified", "d": "leaderboard"}
    report = aggregate(ReportData(records, ["x"], list("abcd"), [0], "set", complexity, thresholds=states))
    assert report["groups"]["low"]["thresholds"] == {"verified": 1, "unverified": 1}
    assert report["groups"]["embedded"]["thresholds"] == {"leaderboard": 1}
    text = to_markdown(report)
    assert "low: 1 of 2 verified" in text and "high: 0 of 1 verified" in text
    assert "embedded: none (1 from our own reference leaderboards)" in text
    assert "<p>Medal thresholds verified against v1&#39;s leaderboards: " in to_html(report)
    unknown = aggregate(
        ReportData(records, ["x"], ["a"], [0], "s", complexity)
    )  # no threshold states given: no line
    assert "Medal thresholds verified" not in to_markdown(unknown)


def test_results_made_with_our_own_texts_are_marked_not_comparable() -> None:
    v1 = {"lineage": {"texts": {"source": "mlebench", "description_git_blob": "f" * 40}}}
    ours = {"lineage": {"texts": {"source": "ours"}}}
    mixed = [{**_rec("x", "a", 0, True), **v1}, {**_rec("x", "b", 0, False), **ours}]
    report = aggregate(ReportData(mixed, ["x"], ["a", "b"], [0], "set", {"a": "low", "b": "low"}))
    assert report["task_texts"] == {
        "cells": {"mlebench": 1, "ours": 1},
        "comparable_with_published_leaderboard": False,
    }
    assert "Not comparable with the published MLE-bench leaderboard" in to_markdown(report)
    assert 'class="flag">Task texts: mlebench in 1, ours in 1 cells. Not comparable' in to_html(report)
    legacy = [_rec("x", "a", 0, True)]  # a record from before the setting: our texts
    report = aggregate(ReportData(legacy, ["x"], ["a"], [0], "set", {"a": "low"}))
    assert report["task_texts"]["cells"] == {"ours": 1}
    only_v1 = [{**_rec("x", c, 0, True), **v1} for c in "ab"]
    report = aggregate(ReportData(only_v1, ["x"], ["a", "b"], [0], "set", {"a": "low", "b": "low"}))
    assert report["task_texts"]["comparable_with_published_leaderboard"]
    assert "Not comparable" not in to_markdown(report) and "mlebench in 2 cells" in to_markdown(report)


def test_the_network_policy_stands_beside_every_headline_figure() -> None:
    """Issue 39: a headline says which network its cells ran under, and says so when it mixes policies."""
    comps = ["a", "b"]
    records = [{**_rec("offline", cid, 0, True), "lineage": {"agent_network": "none"}} for cid in comps] + [
        {**_rec("web", "a", 0, True), "lineage": {"agent_network": "egress"}},
        {**_rec("web", "b", 0, True), "lineage": {"agent_network": "none"}},
    ]
    report = aggregate(
        ReportData(records, ["offline", "web"], comps, [0], "set", {"a": "embedded", "b": "embedded"})
    )
    assert report["agents"]["offline"]["network"] == "none"
    assert report["agents"]["web"]["network"] == "mixed: egress (1 cells), none (1 cells)"
    assert headline(report)["web"]["set"]["network"].startswith("mixed: ")
    md = to_markdown(report)
    assert "| agent | network | group |" in md and "| offline | none | set |" in md
    assert "| web | mixed: egress (1 cells), none (1 cells) | set |" in md
    assert "- web (network: mixed: egress (1 cells), none (1 cells)):" in md
    html = to_html(report)
    assert "<td>mixed: egress (1 cells), none (1 cells)</td>" in html and "(network: none)" in html
