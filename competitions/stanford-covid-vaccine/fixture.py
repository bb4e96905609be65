"""A small stand-in for Kaggle's stanford-covid-vaccine download: JSON-lines train/test, sample CSV."""

from pathlib import Path

import numpy as np
import pandas as pd

from authoring.grading_inputs import GradingInputs, units
from authoring.synthetic import text
from mlebench_spec.declarations import Competition, RealSize

TARGETS = ["reactivity", "deg_Mg_pH10", "deg_pH10", "deg_Mg_50C", "deg_50C"]
LENGTH, SCORED = 20, 12


def _sequences(rng: np.random.Generator, n: int, start: int) -> pd.DataFrame:
    return pd.DataFrame(
        {
            "index": np.arange(n),
            "id": [f"id_{i:09x}" for i in rng.choice(16**9, size=n, replace=False) + start],
            "sequence": ["".join(rng.choice(list("GACU"), size=LENGTH)) for _ in range(n)],
            "structure": ["".join(rng.choice(list(".()"), size=LENGTH)) for _ in range(n)],
            "predicted_loop_type": ["".join(rng.choice(list("SEHBXIM"), size=LENGTH)) for _ in range(n)],
        }
    )


def make_download(dest: Path, rng: np.random.Generator) -> None:
    """Write the small download into ``dest``, all randomness from ``rng``."""
    n = 300
    train = _sequences(rng, n, 0)
    train["signal_to_noise"] = rng.uniform(0, 10, size=n).round(3)
    train["SN_filter"] = (train["signal_to_noise"] > 1).astype(int)
    train["seq_length"], train["seq_scored"] = LENGTH, SCORED
    for target in TARGETS:
        error = "reactivity_error" if target == "reactivity" else target.replace("deg_", "deg_error_")
        train[error] = [list(rng.uniform(0, 0.3, size=SCORED).round(4)) for _ in range(n)]
    for target in TARGETS:
        train[target] = [list(rng.normal(0.5, 0.4, size=SCORED).round(4)) for _ in range(n)]
    train.to_json(dest / "train.json", orient="records", lines=True)
    test = _sequences(rng, 30, 1)
    test["seq_length"], test["seq_scored"] = LENGTH, SCORED
    test.to_json(dest / "test.json", orient="records", lines=True)
    ids = [f"{i}_{p}" for i in test["id"] for p in range(LENGTH)]
    pd.DataFrame({"id_seqpos": ids, **{t: 0.0 for t in TARGETS}}).to_csv(
        dest / "sample_submission.csv", index=False
    )


REAL_LENGTH, REAL_SCORED = 107, 68  # the real test sequences: positions, and how many of them are scored


def grading_inputs(comp: Competition, size: RealSize, rng: np.random.Generator) -> GradingInputs:
    """Answers (with the ``keep`` column of scored positions) and a noisy submission, one row per position."""
    n_seq = units(size.test_rows, REAL_LENGTH)
    seq = np.repeat(np.arange(n_seq), REAL_LENGTH)
    pos = np.tile(np.arange(REAL_LENGTH), n_seq)
    row_ids = (
        pd.Series(seq)
        .map("id_{:07x}".format)
        .str.cat(pd.Series(pos).astype(str), sep="_")
        .to_numpy(dtype=object)
    )
    truth = rng.gamma(1.0, 0.5, (len(row_ids), len(TARGETS)))
    answers = pd.DataFrame(
        {
            "id_seqpos": row_ids,
            **{c: text(truth[:, k]) for k, c in enumerate(TARGETS)},
            "keep": np.where(pos < REAL_SCORED, "True", "False"),
        }
    )
    noisy = truth + rng.normal(0, 0.3, truth.shape)
    submission = pd.DataFrame({"id_seqpos": row_ids, **{c: text(noisy[:, k]) for k, c in enumerate(TARGETS)}})
    return GradingInputs(answers, submission)
