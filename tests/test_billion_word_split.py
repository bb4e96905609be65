"""billion-word-imputation's block-drawn split gives exactly the split of one draw per line, on any input.

The prepare draws its uniform numbers in blocks and rewinds the generator at each test line; the reference
below walks the lines one by one, drawing as the module docstring describes. Both must agree on awkward
text (doubled spaces, quotes, non-ASCII and non-breaking spaces, a last line without its newline) and for
any read size, down to one byte, so that lines split across reads are handled.
"""

from __future__ import annotations

import io

import numpy as np
import pytest

from mlebench.data.scripts import load_script
from mlebench_spec.declarations import load_competition

WORDS = ["a", "bb", '"q"', "é", "x\u00a0y", "  ", "c", "."]


def _one_draw_per_line(text: str, probability: float, seed: int) -> tuple[str, str, str]:
    rng = np.random.RandomState(seed)
    train, test, answers = [], [], []
    for line in io.StringIO(text, newline=""):
        if rng.uniform() <= probability and len(line.strip().split()) > 2:
            full = line.strip().replace('"', '""')
            words = full.split()
            drop = rng.randint(1, len(words) - 1)
            test.append(f'{len(answers)},"{" ".join(words[:drop] + words[drop + 1 :])}"\n')
            answers.append(f'{len(answers)},"{full}"\n')
        else:
            train.append(line)
    return "".join(train), "".join(test), "".join(answers)


@pytest.mark.parametrize("trial", range(12))
def test_block_draws_match_one_draw_per_line(trial: int) -> None:
    module = load_script(load_competition("billion-word-imputation").folder / "prepare.py")
    rng = np.random.default_rng(trial)
    lines = [" ".join(rng.choice(WORDS, int(rng.integers(0, 7)))) for _ in range(int(rng.integers(1, 3000)))]
    text = "\n".join(lines) + ("\n" if trial % 2 else "")
    probability = [0.01, 0.3, 0.9][trial % 3]
    train, test, answers = io.BytesIO(), io.StringIO(), io.StringIO()
    splitter = module._Splitter(train, test, answers, probability, trial)
    splitter.run(io.BytesIO(text.encode("utf-8")), size=[1, 7, 300, 1 << 20][trial % 4])
    got = (train.getvalue().decode("utf-8"), test.getvalue(), answers.getvalue())
    assert got == _one_draw_per_line(text, probability, trial)
    assert splitter.count == answers.getvalue().count("\n")
