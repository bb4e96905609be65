"""A small stand-in for Kaggle's lmsys-chatbot-arena download: train.csv with the real columns."""

import json
from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, probabilities
from mlebench_spec.declarations import Competition, RealSize

MODELS = ["gpt-4-1106-preview", "claude-2.1", "llama-2-70b-chat", "mixtral-8x7b-instruct-v0.1", "gemini-pro"]
WORDS = ["what", "is", "the", "best", "way", "to", "learn", "python", "explain", "quantum", "poem", "about"]


def _texts(rng: np.random.Generator) -> str:
    return json.dumps(
        [" ".join(rng.choice(WORDS, size=rng.integers(3, 12))) for _ in range(rng.integers(1, 3))]
    )


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small stand-in download into ``dest``."""
    n = 300
    winner = rng.integers(0, 3, size=n)
    frame = pd.DataFrame(
        {
            "id": rng.choice(4_000_000_000, size=n, replace=False),
            "model_a": rng.choice(MODELS, size=n),
            "model_b": rng.choice(MODELS, size=n),
            "prompt": [_texts(rng) for _ in range(n)],
            "response_a": [_texts(rng) for _ in range(n)],
            "response_b": [_texts(rng) for _ in range(n)],
            "winner_model_a": (winner == 0).astype(int),
            "winner_model_b": (winner == 1).astype(int),
            "winner_tie": (winner == 2).astype(int),
        }
    )
    frame.to_csv(dest / "train.csv", index=False)


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Grading inputs at ``size``: one-hot answers, softmax predictions."""
    return probabilities(comp, size.test_rows, rng)
