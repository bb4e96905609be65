"""Golden cases for ``mcrmse`` (expected values from independent v1-style reference code)."""

import pytest

from ._golden import check, load, score

CASES = load("mcrmse")


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_golden(case):
    check("mcrmse", case)


def test_keep_mask_applied_by_file_position_v1_bug():
    """Spec 9.2 item 4: v1 applies the keep mask by index label, so order matters.

    A submission not in the answers' file order is scored on the wrong positions.
    """
    cases = {c["name"]: c for c in load("mcrmse")}
    shuffled = cases["shuffled_scores_wrong_rows_in_v1"]
    assert score("mcrmse", shuffled) != pytest.approx(score("mcrmse_fixed", {**shuffled, "args": {}}))
