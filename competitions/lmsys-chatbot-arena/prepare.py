"""lmsys-chatbot-arena: v1 holds out 10% of train.csv (TTS 0.1, seed 0).

Public: train.csv, test.csv (id, prompt, response_a, response_b), sample_submission.csv (each class 1/3).
Private: answers.csv, the full held-out rows (the winner columns are already one-hot).
"""

from pathlib import Path

import pandas as pd

from mlebench.data.prepare import write_csv
from mlebench.data.splitting import split_frame
from mlebench_spec.declarations import Competition

TARGETS = ["winner_model_a", "winner_model_b", "winner_tie"]


def prepare(raw: Path, public: Path, private: Path, comp: Competition) -> None:
    """Build public/ and private/ from ``raw`` as v1 does (see the module docstring)."""
    train, test = split_frame(pd.read_csv(raw / "train.csv"), comp.split)
    write_csv(train, public / "train.csv")
    write_csv(test[["id", "prompt", "response_a", "response_b"]], public / "test.csv")
    write_csv(test, private / comp.submission.answers)
    sample = test[["id"]].assign(**{name: 1 / 3 for name in TARGETS})
    write_csv(sample, public / "sample_submission.csv")
