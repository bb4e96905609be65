"""Paired comparison of two agents: a case small enough to enumerate by hand.

Any-medal by seed, agents A and B:

    p: A = [T, T], B = [F, T]  →  d = [1, 0]
    q: A = [T, F], B = [F, F]  →  d = [1, 0]

Difference = 100 · mean(0.5, 0.5) = +50 points. Two pairs differ, each weighing 100 / (2 · 2) = 25: the
four sign flips give +50, 0, 0, −50, so the two-sided p = 2/4 = 0.5. Bootstrapping each competition's two
pairs gives per-competition means 0, .5, 1 with chances 1/4, 1/2, 1/4; the overall difference is 0 or 100
with chance 1/16 each (above 2.5%), so the 95% interval is [0, 100].
"""

from __future__ import annotations

import pytest

from mlebench.reporting.compare import paired_comparison


def _cells(medals: dict[tuple[str, str], list[bool]]) -> dict:
    return {
        (agent, cid, seed): {"any_medal": medal}
        for (agent, cid), flags in medals.items()
        for seed, medal in enumerate(flags)
    }


CELLS = _cells(
    {
        ("A", "p"): [True, True],
        ("B", "p"): [False, True],
        ("A", "q"): [True, False],
        ("B", "q"): [False, False],
    }
)


def test_small_case_by_hand() -> None:
    result = paired_comparison(CELLS, "A", "B", ["p", "q"], [0, 1])
    assert result["difference_pct"] == 50.0 and result["pairs"] == 4
    assert result["p_value"] == 0.5 and "exact over 4 flips" in result["test"]
    assert result["ci95"] == [0.0, 100.0]
    assert result["per_competition"]["p"] == {
        "pairs": 2,
        "a_pct": 100.0,
        "b_pct": 50.0,
        "difference_pct": 50.0,
    }


def test_the_comparison_is_antisymmetric() -> None:
    forward = paired_comparison(CELLS, "A", "B", ["p", "q"], [0, 1])
    backward = paired_comparison(CELLS, "B", "A", ["p", "q"], [0, 1])
    assert backward["difference_pct"] == -forward["difference_pct"]
    assert backward["p_value"] == forward["p_value"]
    assert backward["ci95"] == pytest.approx([-100.0, 0.0])


def test_only_cells_both_agents_graded_are_paired() -> None:
    cells = dict(CELLS)
    del cells[("B", "q", 1)]
    result = paired_comparison(cells, "A", "B", ["p", "q", "r"], [0, 1])
    assert result["per_competition"]["q"]["pairs"] == 1 and result["unpaired"] == ["r"]


def test_no_difference_and_no_pairs() -> None:
    same = _cells({("A", "p"): [True, False], ("B", "p"): [True, False]})
    result = paired_comparison(same, "A", "B", ["p"], [0, 1])
    assert result["difference_pct"] == 0.0 and result["p_value"] == 1.0 and result["ci95"] == [0.0, 0.0]
    assert paired_comparison(same, "A", "C", ["p"], [0, 1])["difference_pct"] is None


def test_many_differing_pairs_use_a_seeded_monte_carlo() -> None:
    cells = _cells(
        {("A", f"c{i}"): [True] * 2 for i in range(10)} | {("B", f"c{i}"): [False] * 2 for i in range(10)}
    )
    ids = [f"c{i}" for i in range(10)]
    first = paired_comparison(cells, "A", "B", ids, [0, 1])
    assert first["difference_pct"] == 100.0 and "Monte Carlo" in first["test"]
    assert first["p_value"] < 0.001
    assert paired_comparison(cells, "A", "B", ids, [0, 1]) == first  # seeded: reproducible
