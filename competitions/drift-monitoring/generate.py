"""drift-monitoring: a deployed classifier's reference data and 40 production batches that drift.

``generate(dest, seed)`` writes, from ``seed`` alone (numpy's PCG64 stream; every float rounded to 4
decimals before it is written, so the bytes do not depend on the platform's last-bit rounding):

- ``reference.csv``: 6,000 rows from the training-time distribution, with the model's score and the label;
- ``production.csv``: 40 batches of 1,000 rows, with the score and the (private) label;
- ``batches.csv``: each batch's drift, as generated (private): the covariate shift and the positive rate.

The label follows a fixed rule with an interaction (``x3 * x4``) and a bend (``sin``) that the deployed
model, a plain logistic score, does not have: where the drift moves rows into that region, the model's
accuracy falls more than its own confidence says. Each batch has a covariate shift of known size (means of
x1, x3, x4, the spread of x2 and the segment mix move) and, in about 40 % of batches, a label shift (rows
are drawn per class to a given positive rate, so P(x | y) stays that of the shifted population).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

REFERENCE_ROWS = 6000
BATCHES = 40
BATCH_ROWS = 1000
SEGMENTS = np.array(["A", "B", "C"])
_TRUE_SEGMENT = {"A": 0.0, "B": 0.8, "C": -1.0}
_MODEL_SEGMENT = {"A": 0.0, "B": 0.45, "C": -0.6}


def _sigmoid(z: np.ndarray) -> np.ndarray:
    return 1.0 / (1.0 + np.exp(-z))


def _rows(
    rng: np.random.Generator, n: int, shift: float, direction: np.ndarray, mix: np.ndarray
) -> pd.DataFrame:
    """Draw ``n`` rows, covariates moved by ``shift`` along ``direction``, segment probabilities ``mix``."""
    x1 = rng.normal(shift * direction[0], 1.0, n)
    x2 = rng.normal(0.0, 1.0 + 0.5 * shift * abs(direction[1]), n)
    x3 = rng.normal(shift * direction[2], 1.0, n)
    x4 = rng.normal(shift * direction[3], 1.0, n)
    x5 = rng.uniform(-2.0, 2.0, n)
    segment = SEGMENTS[rng.choice(3, size=n, p=mix)]
    frame = pd.DataFrame({"x1": x1, "x2": x2, "x3": x3, "x4": x4, "x5": x5}).round(4)
    frame["segment"] = segment
    seg_true = frame["segment"].map(_TRUE_SEGMENT).to_numpy()
    seg_model = frame["segment"].map(_MODEL_SEGMENT).to_numpy()
    v = frame[["x1", "x2", "x3", "x4", "x5"]].to_numpy()
    truth = -0.4 + 2.0 * v[:, 0] - 1.5 * v[:, 1] + 1.2 * v[:, 2] * v[:, 3] + 1.2 * np.sin(1.5 * v[:, 4])
    frame["label"] = (rng.random(n) < _sigmoid(truth + seg_true)).astype("int64")
    model = -1.0 + 1.5 * v[:, 0] - 1.1 * v[:, 1] + 0.6 * v[:, 4] + seg_model
    frame["score"] = np.round(_sigmoid(model), 4)
    return frame


def generate(dest: Path, seed: int) -> None:
    """Write reference.csv, production.csv and batches.csv into ``dest`` from ``seed``."""
    rng = np.random.default_rng(seed)
    base_mix = np.array([0.5, 0.3, 0.2])
    reference = _rows(rng, REFERENCE_ROWS, 0.0, np.zeros(4), base_mix)
    batches, meta = [], []
    for batch in range(1, BATCHES + 1):
        # drift that grows over the batches, with calm batches and jumps in between
        calm = rng.random() < 0.2
        shift = 0.0 if calm else round(float(rng.uniform(0.0, 0.5 + 2.5 * batch / BATCHES)), 4)
        direction = rng.choice([-1.0, 1.0], 4) * np.array([0.6, 1.0, 1.0, 1.0])
        mix = np.round(rng.dirichlet(base_mix * 20), 4) if shift else base_mix
        mix = mix / mix.sum()
        pool = _rows(rng, 6 * BATCH_ROWS, shift, direction, mix)
        if (
            rng.random() < 0.4
        ):  # label shift: draw the batch per class, to a positive rate far from the pool's
            rate = round(float(rng.uniform(0.15, 0.85)), 2)
            positives = int(round(rate * BATCH_ROWS))
            pos, neg = pool[pool["label"] == 1], pool[pool["label"] == 0]
            positives = min(positives, len(pos), BATCH_ROWS)
            negatives = min(BATCH_ROWS - positives, len(neg))
            positives = BATCH_ROWS - negatives
            take = np.concatenate(
                [
                    rng.choice(pos.index.to_numpy(), positives, replace=False),
                    rng.choice(neg.index.to_numpy(), negatives, replace=False),
                ]
            )
            rows = pool.loc[np.sort(take)]
            label_shift = True
        else:
            rows = pool.iloc[:BATCH_ROWS]
            label_shift = False
        rows = rows.sample(frac=1.0, random_state=np.random.RandomState(rng.integers(2**31)))
        batches.append(rows.assign(batch=batch))
        meta.append(
            {
                "batch": batch,
                "covariate_shift": shift,
                "label_shift": int(label_shift),
                "positive_rate": round(float(rows["label"].mean()), 4),
                "segment_mix": " ".join(f"{p:.4f}" for p in mix),
            }
        )
    production = pd.concat(batches, ignore_index=True)
    columns = ["x1", "x2", "x3", "x4", "x5", "segment", "score", "label"]
    reference = reference[columns]
    production = production[["batch", *columns]]
    order = rng.permutation(len(reference) + len(production))
    reference.insert(0, "row_id", order[: len(reference)] + 1)
    production.insert(0, "row_id", order[len(reference) :] + 1)
    reference.to_csv(dest / "reference.csv", index=False, lineterminator="\n", float_format="%.4f")
    production.to_csv(dest / "production.csv", index=False, lineterminator="\n", float_format="%.4f")
    pd.DataFrame(meta).to_csv(dest / "batches.csv", index=False, lineterminator="\n")
