"""text-normalization-challenge-russian-language: blank ``after`` cells are scored as v1 scores them.

pandas reads NA-like words and empty cells as missing, so v1's answers and sample submission hold blank
cells there, and v1 casts both sides to ``str`` before an exact match: a blank prediction matches a blank
answer and misses any other. Expected scores were computed with v1's grading logic on the same CSVs.
"""

from __future__ import annotations

import pytest

from graders.grade import grade
from mlebench_spec.declarations import load_competition

COMPETITION = "text-normalization-challenge-russian-language"


@pytest.mark.parametrize(
    ("answers", "submission", "expected"),
    [
        # a blank answer met by a blank prediction counts as correct (v1: 2/3)
        ("id,after\n0_0,\n0_1,один\n0_2,два\n", "id,after\n0_2,два\n0_0,\n0_1,три\n", 0.66667),
        # a blank prediction is valid and simply wrong against a non-blank answer (v1: 2/3)
        ("id,after\n0_0,x\n0_1,один\n0_2,два\n", "id,after\n0_0,\n0_1,один\n0_2,два\n", 0.66667),
        # every prediction blank (v1: 1/3, only the blank answer matches)
        ("id,after\n0_0,\n0_1,один\n0_2,два\n", "id,after\n0_0,\n0_1,\n0_2,\n", 0.33333),
        # fully quoted files, as v1 writes them (QUOTE_NONNUMERIC); a quoted empty cell is blank (v1: 3/4)
        (
            '"id","after"\n"0_0",""\n"0_1","sil"\n"0_2","два"\n"0_3","два"\n',
            '"id","after"\n"0_3","два"\n"0_0",""\n"0_1","sil"\n"0_2","один"\n',
            0.75,
        ),
    ],
)
def test_blank_after_cells_are_scored_like_v1(tmp_path, answers, submission, expected):
    private = tmp_path / "private"
    private.mkdir()
    (private / "answers.csv").write_text(answers, encoding="utf-8")
    path = tmp_path / "submission.csv"
    path.write_text(submission, encoding="utf-8")
    result = grade(load_competition(COMPETITION), path, private)
    assert result.status == "ok", result.reason
    assert result.score == expected
