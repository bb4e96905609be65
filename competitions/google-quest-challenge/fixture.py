"""A small stand-in for Kaggle's google-quest-challenge download: train.csv with its 41 columns."""

from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from authoring.grading_inputs import GradingInputs, score_columns
from mlebench_spec.declarations import Competition, RealSize

_TARGETS = yaml.safe_load((Path(__file__).parent / "competition.yaml").read_text())["submission"]["columns"][
    1:
]
_WORDS = ["what", "is", "the", "best", "way", "to", "learn", "cooking", "code", "grammar", "why", "does"]


def _text(rng: np.random.Generator, n: int, size: int) -> list[str]:
    return [" ".join(rng.choice(_WORDS, size=size)) for _ in range(n)]


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write train.csv; question_type_spelling is rare, so the split's swap rule gets exercised."""
    n = 300
    hosts = rng.choice(
        ["stackoverflow.com", "cooking.stackexchange.com", "english.stackexchange.com"], size=n
    )
    frame = pd.DataFrame(
        {
            "qa_id": np.sort(rng.choice(10_000, size=n, replace=False)),
            "question_title": _text(rng, n, 6),
            "question_body": _text(rng, n, 20),
            "question_user_name": [f"user{i}" for i in rng.integers(0, 500, size=n)],
            "question_user_page": [
                f"https://{h}/users/{i}" for h, i in zip(hosts, rng.integers(0, 9999, size=n), strict=True)
            ],
            "answer": _text(rng, n, 25),
            "answer_user_name": [f"user{i}" for i in rng.integers(0, 500, size=n)],
            "answer_user_page": [
                f"https://{h}/users/{i}" for h, i in zip(hosts, rng.integers(0, 9999, size=n), strict=True)
            ],
            "url": [
                f"https://{h}/questions/{i}"
                for h, i in zip(hosts, rng.integers(0, 99999, size=n), strict=True)
            ],
            "category": rng.choice(
                ["TECHNOLOGY", "CULTURE", "LIFE_ARTS", "SCIENCE", "STACKOVERFLOW"], size=n
            ),
            "host": hosts,
        }
    )
    levels = np.array([0.0, 1 / 3, 0.5, 2 / 3, 1.0])
    for target in _TARGETS:
        frame[target] = levels[rng.integers(0, 5, size=n)]
    frame["question_type_spelling"] = 0.0
    frame.loc[[7, 150, 260], "question_type_spelling"] = [1 / 3, 0.5, 1 / 3]
    frame.to_csv(dest / "train.csv", index=False)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: ratings in [0, 1] per column, noisy scores."""
    return score_columns(comp, size.test_rows, rng, graded=True)
